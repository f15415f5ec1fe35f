// structuredClone of a DAG of shared arrays copies each array once (shared references are kept),
// and of a deep chain iterates (no Rust recursion, on the 256 KiB thread).
// expect: value [true, 30, 50000]
// timeout-ms: 10000
// memory-limit: 64MiB
let a = [1];
for (let i = 0; i < 30; i++) a = [a, a];
const c = structuredClone(a);
let depth = 0;
for (let x = c; Array.isArray(x); x = x[0]) depth++;
const root = {};
let d = root;
for (let i = 0; i < 50000; i++) { d.next = { i }; d = d.next; }
let e = structuredClone(root);
let n = 0;
while (e.next) { e = e.next; n++; }
return [c[0] === c[1], depth - 1, n];
