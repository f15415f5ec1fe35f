const out = [];
try { out.push(x); let x = 1; } catch (e) { out.push(e.name); }
{ let y = 1; { let y = 2; out.push(y); } out.push(y); }
var v = 1; { var v = 2; } out.push(v);
function hoisted() { return inner(); function inner() { return "inner"; } }
out.push(hoisted());
const f = function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); };
out.push(f(5));
let shadow = "outer";
function sh() { let shadow = "inner"; return shadow; }
out.push(sh(), shadow);
for (const q of [1]) { const q2 = q; out.push(q2); }
return out;
