// Promise statics and `then` with a constructor other than the intrinsic: subclasses, overridden
// `resolve`/`then`, thenable items, a NotPromise capability constructor and receiver errors.
const log = [];
let constructed = 0;
class MyPromise extends Promise {
  constructor(executor) {
    constructed += 1;
    super(executor);
  }
}
const p = MyPromise.resolve(1);
const q = p.then((v) => v + 1);
const thenIsMy = q instanceof MyPromise;
// Before any await of a MyPromise (awaiting one calls its then, which this VM skips).
const constructedBeforeAwait = constructed;
const fromThen = await q;

class Counting extends Promise {
  static resolve(v) {
    log.push("resolve " + String(v));
    return super.resolve(v);
  }
}
const all = await Counting.all([1, Promise.resolve(2), 3]);
const settled = await Counting.allSettled([1, Promise.reject(new Error("no"))]);
const settledShape = settled.map((s) => s.status + ":" + (s.value ?? s.reason.message));
const anyValue = await Counting.any([Promise.reject(1), 2]);
const raceValue = await Counting.race([new Promise(() => {}), 5]);

const thenable = {
  then(res) {
    log.push("thenable then");
    res(42);
  },
};
const withThenable = await Promise.all([thenable, 1]);

let executorInfo;
function NotPromise(executor) {
  executorInfo = [typeof executor, executor.length, executor.name];
  executor(() => log.push("not-promise resolve"), () => {});
}
const notPromise = Promise.resolve.call(NotPromise, 7) instanceof NotPromise;

const errors = [];
try {
  Promise.resolve.call(undefined, 1);
} catch (e) {
  errors.push(e instanceof TypeError);
}
try {
  Promise.all.call(1, []);
} catch (e) {
  errors.push(e instanceof TypeError);
}
class Throwing extends Promise {
  static resolve() {
    throw new Error("boom");
  }
}
const rejectedByResolve = await Promise.all.call(Throwing, [1]).catch((e) => e.message);

const catchResult = Promise.prototype.catch.call(
  { then: (a, b) => ["then called", a, typeof b] },
  () => {},
);

let elementInfo;
const p1 = Promise.resolve(1);
p1.then = function (f, r) {
  elementInfo = [f.length, f.name, Object.getPrototypeOf(f) === Function.prototype, typeof r];
  return Promise.prototype.then.call(this, f, r);
};
const viaCustomThen = await Promise.all([p1, 2]);

return {
  fromThen,
  constructedBeforeAwait,
  thenIsMy,
  all,
  settledShape,
  anyValue,
  raceValue,
  withThenable,
  executorInfo,
  notPromise,
  errors,
  rejectedByResolve,
  catchResult,
  elementInfo,
  viaCustomThen,
  log,
};
