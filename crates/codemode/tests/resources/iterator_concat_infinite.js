// Iterator.concat over an iterator that never ends, collected by toArray: every value is a call
// of the inner `next` through the trampoline and a new iterator result, so the run must end at
// its deadline, with the values gathered so far well inside the memory limit.
// expect: error TimeoutExceeded
// timeout-ms: 1000
// memory-limit: 2GiB
const endless = { [Symbol.iterator]() { return { next() { return { value: 1, done: false }; } }; } };
return Iterator.concat([0], endless).toArray().length;
