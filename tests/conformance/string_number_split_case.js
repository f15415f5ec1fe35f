// String to number (integers take a fast path), split and case changes read `this` in place.
const log = [];
const inputs = ["0", "-0", "007", "42", "-42", "123456789012345", "1234567890123456", "12345678901234567890",
  "", "-", "+5", " 12 ", "\t7\n", "1e3", "12a", "0x1F", "-0x1F", ".5", "5.", "Infinity", "-Infinity",
  "\u0663", "1_000", "00000000000000000001"];
log.push(inputs.map(s => { const n = Number(s); return Object.is(n, -0) ? "-0" : String(n); }));
log.push(inputs.map(s => +s === Number(s) || (Number.isNaN(+s) && Number.isNaN(Number(s)))));
log.push("10" * "3", "7" - "-2", "5" > 4, "12" < "9", [10, 9, 1].sort().join());

log.push("a,b,,c".split(","), "a,b,,c".split(",", 2), "abc".split(""), "".split(","), "".split(""));
log.push("héllo wörld".split("ö"), "x".split(), "one  two".split(" ", 0));
log.push("a1b2c3".split(/\d/), "2024-01-15".split("-").map(Number));
const sepObj = { toString() { return "|"; } };
log.push("p|q|r".split(sepObj));
log.push(String.prototype.split.call(12345, "3"), String.prototype.split.call(new String("u,v"), ","));
const limitObj = { valueOf() { return 2; } };
log.push("a-b-c-d".split("-", limitObj));

log.push("Straße".toUpperCase(), "İSTANBUL".toLowerCase().length, "MiXeD 123".toLowerCase(), "ascii".toUpperCase());
log.push(String.prototype.toUpperCase.call(true), String.prototype.toLowerCase.call(new String("ABC")));
log.push("a-very-long-string-that-does-not-fit-inline-at-all".toUpperCase());
try { String.prototype.toUpperCase.call(null); } catch (e) { log.push(e.constructor.name); }
try { String.prototype.split.call(undefined, ","); } catch (e) { log.push(e.constructor.name); }
return log;
