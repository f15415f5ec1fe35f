// Array.prototype.toLocaleString and Object.prototype.toLocaleString: built-in element methods,
// a program's methods (each called once), nested arrays, a self-cycle, locales passed on.
const r = [];
for (const v of [1, "a", true, {}, [1,2], 10n, Symbol("s"), new Date(0)]) { try { r.push(typeof v.toLocaleString); } catch (e) { r.push(e.message); } }
r.push([1234.5, "x", null, undefined, true, [5678, [9]], {toLocaleString() { return "custom"; }}, {toString() { return "ts"; }}].toLocaleString());
r.push([1234567.891, 0.5].toLocaleString("de-DE"));
const a = [1]; a.push(a); r.push(a.toLocaleString());
let calls = 0; const objs = Array.from({length: 50}, (_, i) => ({ toLocaleString() { calls++; return "o" + i; } }));
r.push(objs.toLocaleString().length, calls);
try { [{ toLocaleString: 1 }].toLocaleString(); } catch (e) { r.push(e.name); }
r.push(Object.prototype.toLocaleString.call("str"), ({}).toLocaleString(), Symbol("q").toLocaleString());
return r;
