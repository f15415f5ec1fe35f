// `array.push(...)` appends in place from the interpreter when the callee is the built-in push
// and the array is a plain extensible one; every other case must behave as the built-in does.
const log = [];

const a = [];
log.push(a.push(), a.push(1), a.push(2, 3, 4), a.length, a.join());
for (let i = 0; i < 100; i++) a.push(i * 2, "s" + i);
log.push(a.length, a[4], a[5], a[a.length - 1]);

// Holes (read as undefined here, see docs/language.md) and a length set by hand stay consistent
// with push.
const holes = [1, , 3];
holes.push(4);
const shortened = [1, 2, 3, 4];
shortened.length = 2;
shortened.push("x");
log.push(holes.length, holes[3], shortened, shortened.length);

// Sealed, frozen and non-extensible arrays refuse, as the built-in does.
for (const lock of [Object.freeze, Object.seal, Object.preventExtensions]) {
  const locked = lock([1, 2]);
  try {
    locked.push(3);
    log.push("pushed");
  } catch (e) {
    log.push(e.constructor.name, locked.length);
  }
}

// Not the built-in: an own push, a replaced Array.prototype.push, a bound or detached push.
const own = [1];
own.push = function (x) { return "own:" + x + ":" + this.length; };
log.push(own.push(9), own.length);
const saved = Array.prototype.push;
Array.prototype.push = function (...xs) { return "replaced:" + xs.length; };
const b = [0];
const whileReplaced = [b.push(1, 2), b.length, log.push("lost")];
Array.prototype.push = saved;
log.push(whileReplaced);
log.push(b.push(1, 2), b.length);
const detached = b.push;
try { detached(5); log.push("no error"); } catch (e) { log.push(e.constructor.name); }
const bound = saved.bind(b);
log.push(bound(7), b[b.length - 1]);

// Array-likes and other receivers through call/apply.
const like = { length: 1, 0: "a" };
log.push(saved.call(like, "b", "c"), like.length, like[2]);
log.push(saved.apply(b, [8, 9]), b.slice(-2));

// Subclasses and arrays from other built-ins.
class Stack extends Array {}
const st = new Stack();
log.push(st.push(1, 2), st.length, st instanceof Stack);
const fromMap = Array.from(new Map([[1, 2]]));
log.push(fromMap.push([3, 4]), JSON.stringify(fromMap));

// Values of every kind, read back.
const kinds = [];
kinds.push(undefined, null, true, 1.5, "x", [1], { k: 1 }, () => 1);
log.push(kinds.length, kinds.map(v => typeof v));

// Pushing into an array while iterating it with a bounded loop.
const grow = [1];
for (let i = 0; i < 5; i++) grow.push(grow[i] * 2);
log.push(grow);

return log;
