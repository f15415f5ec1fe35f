// A chain of 20,000 `call`s applied to each other: the trampoline iterates (it recursed through Rust and aborted the host).
// expect: value 1
// timeout-ms: 10000
function f(){return 1}; const c = f.call; const a = []; for (let i = 0; i < 20000; i++) a.push(c); a.push(f); return c.apply(c, a)
