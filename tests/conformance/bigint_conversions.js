// BigInt(), asIntN/asUintN, toString(radix), Number(), parseInt and String conversions.
const r = [];
const show = (label, f) => {
  try {
    const v = f();
    r.push(`${label}=${typeof v === "bigint" ? v + "n" : String(v)}`);
  } catch (e) {
    r.push(`${label}!${e.constructor.name}`);
  }
};
show("num", () => BigInt(42)); show("big", () => BigInt(1e21)); show("neg0", () => BigInt(-0));
show("str", () => BigInt(" 123 ")); show("hex", () => BigInt("0xff")); show("bin", () => BigInt("0b11"));
show("oct", () => BigInt("0o17")); show("empty", () => BigInt("")); show("negstr", () => BigInt("-42"));
show("bool", () => BigInt(true)); show("obj", () => BigInt({ valueOf() { return 7; } }));
show("objstr", () => BigInt({ toString() { return "99"; } }));
show("frac", () => BigInt(1.5)); show("nan", () => BigInt(NaN)); show("inf", () => BigInt(Infinity));
show("badstr", () => BigInt("1.5")); show("badstr2", () => BigInt("12n")); show("negHex", () => BigInt("-0x1"));
show("undef", () => BigInt(undefined)); show("null", () => BigInt(null)); show("sym", () => BigInt(Symbol()));
show("new", () => new BigInt(1));
show("asInt", () => BigInt.asIntN(8, 255n)); show("asInt64", () => BigInt.asIntN(64, 2n ** 63n));
show("asUint", () => BigInt.asUintN(8, -1n)); show("asUint64", () => BigInt.asUintN(64, -1n));
show("asInt0", () => BigInt.asIntN(0, 5n)); show("asIntNum", () => BigInt.asIntN(8, 5));
show("toString", () => (255n).toString()); show("radix16", () => (255n).toString(16));
show("radix2", () => (-5n).toString(2)); show("radix36", () => (10n ** 20n).toString(36));
show("badradix", () => (1n).toString(1)); show("locale", () => (1234n).toLocaleString());
show("valueOf", () => Object(5n).valueOf()); show("tag", () => Object.prototype.toString.call(1n));
show("badthis", () => BigInt.prototype.valueOf.call(1));
show("Number", () => Number(2n ** 53n + 1n)); show("NumberNeg", () => Number(-123n));
show("NumberHuge", () => Number(2n ** 1100n)); show("parseInt", () => parseInt(15n));
show("parseFloat", () => parseFloat(15n)); show("String", () => String(-9n));
show("math", () => Math.abs(-1n)); show("max", () => Math.max(1n, 2));
show("isNaN", () => isNaN(1n)); show("numberIsInteger", () => Number.isInteger(1n));
show("plus", () => +1n); show("mix", () => 1n + 1); show("mixmul", () => 2 * 2n);
show("concat", () => [1n, 2n].join("-")); show("arrstr", () => String([3n, 4n]));
show("json", () => JSON.stringify({ a: 1n }));
show("jsonToJSON", () => {
  BigInt.prototype.toJSON = function () { return this.toString() + "n"; };
  try { return JSON.stringify({ a: 1n, b: [2n] }); } finally { delete BigInt.prototype.toJSON; }
});
show("key", () => { const o = {}; o[5n] = 1; return Object.keys(o)[0]; });
console.log(r.join(" "));
return r;
