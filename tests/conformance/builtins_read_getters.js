// Built-ins read getters and proxy traps as JavaScript does (Object.create/defineProperty descriptors, array-likes), in the spec's order; a lazy getter that replaces itself runs once.
const out = [];
const src = {};
Object.defineProperty(src, "p", { get() { out.push("get p"); return { value: 7, enumerable: true }; }, enumerable: true });
const o = Object.create({}, src);
out.push(o.p);
const desc = { get enumerable() { out.push("enum"); return true; }, get value() { out.push("value"); return 3; } };
const t = {};
Object.defineProperty(t, "x", desc);
out.push(JSON.stringify(Object.getOwnPropertyDescriptor(t, "x")));
const al = { length: 3, get 0() { out.push("get0"); return "a"; }, 1: "b", get 2() { return "c"; } };
out.push(Array.prototype.join.call(al, "-"));
let calls = 0;
const lazy = { length: 2, get 0() { calls++; Object.defineProperty(this, "0", { value: "L" }); return "L"; }, get 1() { return "M"; } };
out.push(Array.prototype.slice.call(lazy).join(), calls);
const p = new Proxy({ length: 2, 0: "x", 1: "y" }, { get(t, k, r) { out.push("trap " + String(k)); return Reflect.get(t, k, r); } });
out.push(Array.prototype.join.call(p));
try { Object.defineProperty({}, "y", { get get() { throw new Error("boom"); } }); } catch (e) { out.push(e.message); }
return out;
