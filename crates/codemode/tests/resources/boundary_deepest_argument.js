// An argument nested as deep as the boundary allows (32 levels) crosses on the smallest stack,
// by the native pass and by the walk that runs getters; one level more is refused.
// expect: value "32,32,InvalidToolInput"
let a = 1; for (let i = 0; i < 32; i++) a = { a };
let g = 1; for (let i = 0; i < 31; i++) g = { a: g }; g = { get a() { return g0; } }; 
const g0 = (() => { let x = 1; for (let i = 0; i < 31; i++) x = { a: x }; return x; })();
const depth = (v) => { let d = 0; while (typeof v === "object") { v = v.a; d++; } return d; };
const r1 = await tools.demo.echo(a);
const r2 = await tools.demo.echo(g);
let r3;
try { await tools.demo.echo({ a }); r3 = "crossed"; } catch (e) { r3 = e.name === "Error" && /maximum depth/.test(e.message) ? "InvalidToolInput" : e.name + ": " + e.message; }
return [depth(r1), depth(r2), r3].join(",");
