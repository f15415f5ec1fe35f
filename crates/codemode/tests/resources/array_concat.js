// concat of a large array with itself many times is charged before it is built.
// expect: value "RangeError"
// timeout-ms: 5000
// memory-limit: 64MiB
const a = new Array(1000000).fill(1); const many = []; for (let i = 0; i < 100; i++) many.push(a); try { return a.concat(...many).length; } catch (e) { return e.name; }
