// An array method over an array-like whose length is huge and which holds nothing: the spec
// probes every index (Node runs for hours); codemode gives up after a bounded number of probes
// in one step with a RangeError, instead of holding one instruction past its time slice.
// expect: value ["RangeError", "RangeError", "RangeError"]
// timeout-ms: 20000
const out = [];
for (const f of [Array.prototype.forEach, Array.prototype.some, Array.prototype.reduce]) {
  try { f.call({ length: 2 ** 50 }, (a) => a); } catch (e) { out.push(e.name); }
}
return out;
