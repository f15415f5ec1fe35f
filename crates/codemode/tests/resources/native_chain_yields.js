// A loop whose every step is a built-in calling a built-in (each element's toLocaleString, Array.prototype.map with String) never returned to the interpreter, so it ran to its end inside one instruction whatever the time limit (32M elements: 4.1 s under 1 s). It now yields when its slice's fuel is spent, and the time limit stops it.
// expect: error TimeoutExceeded
// memory-limit: 2GiB
// timeout-ms: 300
const bytes = new Uint8Array(1 << 25);
const text = bytes.toLocaleString();
return new Array(text.length).fill(1).map(String).length;
