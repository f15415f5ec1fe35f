const data = { name: "Ada", password: "secret", nested: { password: "x", n: 1 }, list: [1, 2, { password: "y" }], when: new Date(0) };
const seen = [];
const redacted = JSON.stringify(data, function (key, value) {
  seen.push([key, typeof value, this === undefined ? "undef" : Array.isArray(this) ? "array" : typeof this]);
  if (key === "password") return undefined;
  if (typeof value === "number") return value * 10;
  return value;
});
const pretty = JSON.stringify({ a: [1, { b: 2 }] }, (k, v) => (k === "b" ? "B" : v), 2);
const top = JSON.stringify(5, (k, v) => (k === "" ? { wrapped: v } : v));
const order = [];
const revived = JSON.parse('{"a":1,"b":{"c":"2020-01-01","d":[1,2]},"drop":true}', (key, value) => {
  order.push(key);
  if (key === "drop") return undefined;
  if (key === "c") return value.length;
  if (typeof value === "number") return value + 100;
  return value;
});
const rootRevived = JSON.parse("[1,2]", (k, v) => (k === "" ? v.length : v));
return { redacted, seen, pretty, top, revived, order, rootRevived };
