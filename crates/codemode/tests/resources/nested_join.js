// Joining deeply nested arrays (String([[[...]]])) does not recurse through Rust.
// expect: any
// timeout-ms: 5000
let a = []; for (let i = 0; i < 200000; i++) a = [a]; try { return String(a).length; } catch (e) { return e.name; }
