// Promise combinators step a program's iterator one item at a time and close it when
// `then` or `C.resolve` throws; `finally` on a subclass; resolving with a promise whose own
// `then` was replaced calls that `then`.
const log = [];
const pending = new Promise(() => {});
Object.defineProperty(pending, "then", {
  value() {
    throw new Error("then failed");
  },
});
let nexts = 0;
const endless = {
  [Symbol.iterator]() {
    return {
      next() {
        nexts += 1;
        return { done: false, value: pending };
      },
      return() {
        log.push("closed");
        return {};
      },
    };
  },
};
const closedReason = await Promise.all(endless).catch((e) => e.message);

function* numbers() {
  yield 1;
  yield Promise.resolve(2);
  yield 3;
}
const fromGenerator = await Promise.all(numbers());
const raced = await Promise.race(numbers());

class Sub extends Promise {}
let finallyCalls = 0;
const viaFinally = await Sub.resolve(5).finally(() => {
  finallyCalls += 1;
});
const finallyRejected = await Sub.reject(new Error("r"))
  .finally(() => {
    finallyCalls += 1;
  })
  .catch((e) => e.message);

const custom = Promise.resolve(1);
custom.then = function (resolve) {
  log.push("custom then");
  resolve(99);
};
const adopted = await new Promise((resolve) => resolve(custom));

return { closedReason, nexts, fromGenerator, raced, viaFinally, finallyRejected, finallyCalls, adopted, log };
