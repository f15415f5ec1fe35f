// FinalizationRegistry: argument checks, register/unregister bookkeeping, prototype shape.
// (No target is collected during a short run, so the cleanup callback is never observed.)
const out = [];
const calls = [];
const r = new FinalizationRegistry((held) => calls.push(held));
const a = {}, b = {}, tok = {};
out.push(r.register(a, "held a", tok), r.register(b, "held b", tok), r.register({}, 3));
out.push(r.unregister(tok), r.unregister(tok), r.unregister({}));
const sym = Symbol("s");
r.register(a, 1, sym);
out.push(r.unregister(sym));
for (const bad of [
  () => new FinalizationRegistry(),
  () => new FinalizationRegistry(1),
  () => FinalizationRegistry(() => {}),
  () => r.register(1, 2),
  () => r.register(a, a),
  () => r.register(a, 1, 5),
  () => r.unregister(5),
  () => r.register(Symbol.for("registered"), 1),
  () => FinalizationRegistry.prototype.register.call({}, a, 1),
]) {
  try { bad(); out.push("no throw"); } catch (e) { out.push(e.constructor.name); }
}
out.push(Object.prototype.toString.call(r), typeof FinalizationRegistry.prototype.register,
  FinalizationRegistry.length, FinalizationRegistry.prototype.register.length,
  Object.getPrototypeOf(r) === FinalizationRegistry.prototype, calls.length);
return out;
