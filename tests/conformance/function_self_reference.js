// A function declaration's name read inside its own body is the function itself when nothing
// but the declaration writes the binding; every other case must still read the binding.
const log = [];

function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
log.push(fib(15));

// Reassigned later, from the same scope: reads inside see the new value.
function swapped(n) { return n > 0 ? swapped(n - 1) : "first"; }
const first = swapped;
swapped = function (n) { return "second:" + n; };
log.push(first(3), swapped(3));

// Reassigned from a nested function.
function counter() { return counter === keptCounter; }
function replace() { counter = () => "replaced"; }
const keptCounter = counter;
log.push(keptCounter());
replace();
log.push(keptCounter());

// Two declarations of one name: the last wins, for both bodies.
function twice() { return "one:" + (twice === twiceRef); }
function twice() { return "two:" + (twice === twiceRef); }
const twiceRef = twice;
log.push(twice());

// Written by a `var` with a value and by a parameter of the same name.
function shadow() { return typeof shadow; }
var shadow = shadow;
log.push(shadow());
function outer(inner) {
  function inner() { return typeof inner; }
  return inner();
}
log.push(outer(5));

// Declarations in a block run once per iteration: each closure reads itself.
const made = [];
for (let i = 0; i < 3; i++) {
  function each() { return each; }
  made.push(each);
}
log.push(made.map(f => f() === f), made[0] !== made[1]);

// Nested functions and arrows inside still read the binding.
function viaArrow(n) { const go = m => (m > 0 ? viaArrow(m - 1) : "done"); return go(n); }
log.push(viaArrow(4));

// Generators, async functions and methods called through properties.
function* countdown(n) { if (n > 0) { yield n; yield* countdown(n - 1); } }
log.push([...countdown(4)]);
async function sum(n) { return n === 0 ? 0 : n + (await sum(n - 1)); }
log.push(await sum(10));
const holder = { f: fib };
log.push(holder.f(10), fib.call(null, 11), fib.apply(null, [12]));

// Destructuring and for-of assignment targets count as writes.
function target() { return "original"; }
const keepTarget = target;
[target] = [() => "destructured"];
log.push(keepTarget(), target());
function looped() { return looped(); }
const keepLooped = looped;
for (looped of [() => "from for-of"]);
log.push(keepLooped());

return log;
