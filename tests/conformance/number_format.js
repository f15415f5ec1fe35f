return {
  toFixed: [(1.005).toFixed(2), (1.45).toFixed(1), (8.345).toFixed(2), (0.5).toFixed(0), (-0.5).toFixed(0), (99.995).toFixed(2), (1e-10).toFixed(3), (123.456).toFixed(10), (-1e-7).toFixed(2)],
  toPrecision: [(123.456).toPrecision(4), (0.000123).toPrecision(2), (123456).toPrecision(2), (1e-7).toPrecision(3), (0).toPrecision(3), (99.99).toPrecision(3), (1.25).toPrecision(2), (123.456).toPrecision()],
  radix: [(255).toString(16), (255).toString(2), (-255).toString(36), (0.5).toString(2), (3.75).toString(16), (0.1).toString(3), (1e21).toString(36), (NaN).toString(2)],
  locale: [(1234.5).toLocaleString(), (1234567.891234).toLocaleString(), (-0.0005).toLocaleString(), (12).toLocaleString(), (999.9999).toLocaleString()],
  statics: [Number.isInteger(5), Number.isInteger(5.5), Number.isInteger("5"), Number.isSafeInteger(2 ** 53), Number.isSafeInteger(2 ** 53 - 1), Number.isFinite("1"), Number.isNaN("x"), Number.isNaN(NaN)],
  parse: [Number.parseFloat("3.5kg"), Number.parseInt("08"), Number.parseInt("z", 36)],
  constants: [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.EPSILON > 0, Number.MAX_VALUE > 1e308, Number.MIN_VALUE > 0, Number.POSITIVE_INFINITY === Infinity, Number.NEGATIVE_INFINITY === -Infinity, Number.isNaN(Number.NaN)],
  bool: [true.toString(), false.toString(), (true).valueOf()],
  valueOf: (42).valueOf(),
  rangeErrors: [
    (() => { try { (1).toFixed(101); return "no error"; } catch (e) { return e.name; } })(),
    (() => { try { (1).toString(1); return "no error"; } catch (e) { return e.name; } })(),
    (() => { try { (1).toPrecision(0); return "no error"; } catch (e) { return e.name; } })(),
    (() => { try { "x".repeat(-1); return "no error"; } catch (e) { return e.name; } })(),
    (() => { try { "x".repeat(Infinity); return "no error"; } catch (e) { return e.name; } })(),
  ],
};
