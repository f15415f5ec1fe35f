// The mutating array methods on array-likes: read, changed, written back (length too).
const al = { length: 2, 0: "a", 1: "b" };
const P = Array.prototype;
const out = [P.push.call(al, "c", "d"), JSON.stringify(al), P.pop.call(al), JSON.stringify(al), P.shift.call(al), JSON.stringify(al),
  P.unshift.call(al, "z"), JSON.stringify(al), JSON.stringify(P.splice.call(al, 1, 1)), JSON.stringify(al), JSON.stringify(P.reverse.call({ length: 3, 0: 1, 2: 3 })),
  JSON.stringify(P.fill.call({ length: 2 }, 7)), P.push.call({}, 1)];
function f() { P.push.call(arguments, 9); return [arguments.length, arguments[2]] }
out.push(f(1, 2));
return out;
