// Errors of BigInt operators: their types, and that a program can catch them and go on.
const r = [];
const t = (label, f) => {
  try { f(); r.push(`${label}:ok`); } catch (e) { r.push(`${label}:${e.constructor.name}`); }
};
t("divzero", () => 1n / 0n); t("remzero", () => 1n % 0n);
t("negexp", () => 2n ** -1n); t("ushr", () => 1n >>> 1n); t("plus", () => +1n);
t("mixadd", () => 1n + 1); t("mixsub", () => 1 - 1n); t("mixshl", () => 1n << 1);
t("mixcmp", () => 1n < 2); t("mixeq", () => 1n == 1);
t("incobj", () => { let o = { valueOf() { return 1n; } }; o++; if (o !== 2n) throw new Error("bad"); });
t("symmix", () => 1n + Symbol());
t("syntax", () => BigInt("1e3")); t("range", () => BigInt(0.5));
t("toNumber", () => Math.floor(3n)); t("isFinite", () => isFinite(1n));
t("strMix", () => "a" + 1n);
t("huge", () => 2n ** 10000000000n);
t("shlhuge", () => 1n << 10000000000n);
t("square", () => { let x = 3n; for (let i = 0; i < 100; i++) x = x * x; });
t("return", () => { throw 5n; });
console.log(r.join(" "));
return r;
