// Object.fromEntries, Map and WeakMap take entries that are objects; a string, a number or
// a symbol as an entry is a TypeError (not a string read as [char0, char1]).
const out = [];
for (const make of [
  () => Object.fromEntries("ab"),
  () => Object.fromEntries(["ab"]),
  () => Object.fromEntries([1]),
  () => Object.fromEntries([["k", 1], "xy"]),
  () => new Map(["ab"]),
  () => new Map([[1, 2], 3]),
  () => new WeakMap(["ab"]),
  () => new Map("ab"),
  () => new WeakMap("😀x"),
  () => Object.fromEntries(""),
  () => new Map(""),
]) {
  try {
    const r = make();
    out.push(r instanceof Map ? [...r] : r instanceof WeakMap ? "weakmap" : r);
  } catch (e) {
    out.push(`${e.name}: ${e.message}`);
  }
}
out.push(Object.fromEntries([["a", 1], new String("bc")]));
out.push(Object.fromEntries(new Map([["x", 1]])));
return out;
