const order = [];
const thenable = {
  then(resolve) {
    order.push("then called");
    resolve(5);
  },
};
const v1 = await thenable;
const rejecting = { then(_, reject) { reject(new Error("nope")); } };
let caught;
try {
  await rejecting;
} catch (e) {
  caught = e.message;
}
const throwing = { then() { throw new TypeError("bad then"); } };
const settled = await Promise.allSettled([throwing, Promise.resolve(thenable)]);
class Lazy {
  constructor(v) {
    this.v = v;
  }
  then(onFulfilled) {
    return Promise.resolve(this.v * 2).then(onFulfilled);
  }
}
const nested = { then(r) { r({ then(r2) { r2("deep"); } }); } };
const notThenable = await { then: 42, x: 1 };
return {
  v1,
  caught,
  settled: settled.map((s) => s.status + ":" + (s.value ?? s.reason.message)),
  lazy: await new Lazy(21),
  nested: await nested,
  notThenable,
  order,
  resolved: await Promise.resolve({ then(r) { r("via resolve"); } }),
};
