// Promise combinators reject the promise they return when reading the iterable throws
// (IfAbruptRejectPromise) instead of throwing out of the call.
const log = [];
const bad = {};
bad[Symbol.iterator] = () => ({ next() { throw new Error("boom"); } });
const p1 = Promise.all(bad);
log.push(p1 instanceof Promise);
p1.catch((e) => log.push("all:" + e.message));
Promise.race(5).catch((e) => log.push("race:" + e.constructor.name));
Promise.allSettled(null).catch((e) => log.push("settled:" + e.constructor.name));
Promise.any([]).catch((e) => log.push("any:" + e.constructor.name + ":" + e.errors.length));
const notObject = {};
notObject[Symbol.iterator] = () => 1;
Promise.all(notObject).catch((e) => log.push("iterator-result:" + e.constructor.name));
function* g() { yield 1; yield Promise.resolve(2); }
Promise.all(g()).then((v) => log.push("gen:" + v.join()));
Promise.race(g()).then((v) => log.push("race-gen:" + v));
Promise.allSettled([1, Promise.reject(new Error("no"))]).then((v) =>
  log.push("settled:" + v.map((r) => r.status).join()),
);
Promise.any([Promise.reject(1), 2]).then((v) => log.push("any:" + v));
for (let i = 0; i < 10; i++) await null;
return log;
