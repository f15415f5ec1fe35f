// The array methods that only read are generic over array-likes (arguments, { length }, strings).
const al = { length: 3, 0: "a", 1: "b", 2: "c" };
const P = Array.prototype;
function args() { return arguments }
const out = [P.map.call(al, (x, i, o) => x + i + (o === al)), P.join.call(al, "-"), P.slice.call(args(1, 2, 3), 1), P.indexOf.call(al, "b"),
  P.includes.call("xyz", "y"), P.filter.call("hello", c => c > "h"), P.reduce.call(al, (a, b) => a + b), P.some.call({ length: 0 }, () => true),
  P.at.call(al, -1), P.find.call(args(5, 6), x => x > 5)];
try { P.map.call(null, x => x) } catch (e) { out.push(e.constructor.name) }
return out;
