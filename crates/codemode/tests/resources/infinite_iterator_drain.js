// A program-defined iterator that never ends, drained by a built-in (Promise.all collects its
// iterable first): each `next()` has neither a call nor a loop of its own, so only the trampoline's
// checkpoint between callbacks can end the slice. The run must time out, not run on to the memory
// limit (it took 13 s to reach it before the checkpoint existed).
// expect: error TimeoutExceeded
// timeout-ms: 1000
// memory-limit: 2GiB
const it = {};
it[Symbol.iterator] = function () {
  return { next() { return { value: null, done: false }; } };
};
Promise.all(it);
