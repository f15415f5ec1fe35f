// Methods that copy a large typed array's elements check the copy against the memory limit first.
// expect: value "RangeError,RangeError,41943040"
// timeout-ms: 5000
// memory-limit: 64MiB
const big = new Uint8Array(40 << 20);
const out = [];
for (const f of [() => big.reverse(), () => big.join("")]) {
  try { f(); out.push("none"); } catch (e) { out.push(e.name); }
}
out.push(big.length);
return out.join(",");
