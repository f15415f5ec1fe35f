// BigInt literals in every radix, with separators, as property keys, in templates.
const s = (x) => `${typeof x}:${String(x)}`;
const values = [0n, 123n, 0x1Fn, 0XFFn, 0o17n, 0O777n, 0b101n, 0B1111n, 1_000_000n, 0xFF_FFn,
  18446744073709551615n, 123456789012345678901234567890n];
console.log(values.map(s).join(" "));
const o = { 1n: "one", 0x10n: "sixteen", [2n]: "two" };
console.log(JSON.stringify(Object.keys(o)), o[1], o["16"], o[2n]);
console.log(`${10n ** 30n}`, "n=" + 42n, 42n + "");
const k = { 12345678901234567890n: true };
console.log(Object.keys(k)[0]);
return values.map(String);
