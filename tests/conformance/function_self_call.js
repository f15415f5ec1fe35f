"use strict";
// A declared function calling itself by its own name (`CallSelf`): the running closure is the
// callee. Arguments, `this`, depth, throws, and the functions that take the general call path
// (async, generators, rest parameters, `arguments`) must behave as any other call.
const log = [];

// Fewer and more arguments than parameters; defaults; `this` is undefined in the inner calls
// even when the outer call had a receiver.
function pad(a, b, c) { return a === 0 ? [b, c] : pad(a - 1, "x"); }
function more(a) { return a === 0 ? "end" : more(a - 1, 1, 2, 3); }
function withDefault(n, acc = 10) { return n === 0 ? acc : withDefault(n - 1, acc + n); }
function receiver(n) { return n > 0 ? receiver(n - 1) : this === undefined; }
const holder = { receiver };
log.push(pad(2), more(3), withDefault(4), holder.receiver(0), holder.receiver(2));

// Deep enough to grow the register stack many times, and a sum that needs every frame's value.
function sum(n) { return n === 0 ? 0 : n + sum(n - 1); }
log.push(sum(3000));

// Each activation has its own registers and closures.
function closures(n, out) {
  if (n === 0) return out.map(f => f());
  const mine = n * 10;
  out.push(() => mine + n);
  return closures(n - 1, out);
}
log.push(closures(4, []));

// A throw from deep inside unwinds through the self-calls to a catch in the middle.
function thrower(n) {
  if (n === 0) throw new RangeError("bottom");
  if (n === 3) {
    try { return thrower(n - 1); } catch (e) { return "caught at 3: " + e.message; }
  }
  return thrower(n - 1);
}
log.push(thrower(6));

// Rest parameters and `arguments` (their arrays are made per call).
function rest(n, ...more) { return n === 0 ? more.length : rest(n - 1, ...more, n); }
function args(n) { return n === 0 ? arguments.length : args(n - 1, n, n); }
log.push(rest(4), args(3));

// Generators and async functions calling themselves.
function* walk(tree) {
  yield tree.v;
  for (const child of tree.kids) yield* walk(child);
}
log.push([...walk({ v: 1, kids: [{ v: 2, kids: [{ v: 3, kids: [] }] }, { v: 4, kids: [] }] })]);
async function countdown(n) { return n === 0 ? "liftoff" : countdown(n - 1); }
log.push(await countdown(5));

// Mutual recursion next to self recursion, and a self-call inside a callback.
function isEven(n) { return n === 0 ? true : isOdd(n - 1); }
function isOdd(n) { return n === 0 ? false : isEven(n - 1); }
function flatten(xs) { return xs.flatMap(x => (Array.isArray(x) ? flatten(x) : [x])); }
log.push(isEven(10), isOdd(7), flatten([1, [2, [3, [4]], 5]]));

// Too deep: a RangeError that a catch outside can handle.
function forever(n) { return forever(n + 1) + 1; }
let overflow;
try { forever(0); } catch (e) { overflow = e instanceof RangeError; }
log.push(overflow);

return log;
