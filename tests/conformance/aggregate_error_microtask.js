const order = [];
queueMicrotask(() => order.push("micro1"));
Promise.resolve().then(() => order.push("then1"));
queueMicrotask(() => order.push("micro2"));
order.push("sync");
await null;
await null;
const anyErr = await Promise.any([Promise.reject(new Error("a")), Promise.reject("b")]).catch(e => e);
const anyEmpty = await Promise.any([]).catch(e => e);
const ae = new AggregateError([1, new Error("x")], "many", { cause: "c" });
const aeNoMsg = AggregateError(new Set([3]));
let badArg;
try {
  queueMicrotask(1);
} catch (e) {
  badArg = [e.name, e.message];
}
let notIterable;
try {
  new AggregateError();
} catch (e) {
  notIterable = e.name;
}
class MyAgg extends AggregateError {}
const mine = new MyAgg([1], "sub");
return {
  order,
  anyErr: [anyErr instanceof AggregateError, anyErr instanceof Error, anyErr.name, anyErr.message, anyErr.errors.length, anyErr.errors[0].message, anyErr.errors[1]],
  anyEmpty: [anyEmpty.name, anyEmpty.message, anyEmpty.errors],
  ae: [ae.name, ae.message, ae.errors.length, ae.errors[0], ae.cause, String(ae), ae instanceof AggregateError, Object.keys(ae)],
  aeNoMsg: [aeNoMsg.message, aeNoMsg.errors, "message" in aeNoMsg, Object.prototype.hasOwnProperty.call(aeNoMsg, "message")],
  proto: [Object.getPrototypeOf(AggregateError.prototype) === Error.prototype, AggregateError.prototype.name, AggregateError.prototype.constructor === AggregateError],
  badArg,
  notIterable,
  mine: [mine instanceof MyAgg, mine instanceof AggregateError, mine.errors, mine.message],
};
