// Parameters with defaults, patterns or a rest parameter are bound in order, each in its TDZ
// until then; closures made in a default see later parameters once they are bound.
const r = [];
r.push(((a, b = a + 1, {c} = {c: b * 2}, ...rest) => [a, b, c, rest])(1, undefined, undefined, 4, 5));
r.push((function (a = () => b, b = 2) { return a(); })());
r.push((function ({x, y = x}) { return [x, y, arguments.length]; })({x: 3}));
function f(a, b = 1) { var a; return [a, b]; }
r.push(f(7));
let g = (x = 1) => { const inner = () => x; x = 5; return inner(); };
r.push(g());
try { (function (a = b, ...b) {})(); } catch (e) { r.push(e.name); }
try { (function ([a] = [b], b) {})(); } catch (e) { r.push(e.name); }
try { ((a = a) => a)(); } catch (e) { r.push(e.name, e instanceof ReferenceError); }
r.push(((a, b = a) => b)(undefined, undefined), ((a, b = a) => b)(9));
return r;
