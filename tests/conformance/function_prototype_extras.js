"use strict";
// Function.prototype: caller/arguments throw (%ThrowTypeError%, one frozen function), [Symbol.hasInstance] (bound targets, non-object prototypes), new of a bound function whose target returns an object.
const out = [];
function fn() {}
try { fn.caller; } catch (e) { out.push(e.constructor.name); }
try { fn.arguments = 1; } catch (e) { out.push(e.constructor.name); }
const d1 = Object.getOwnPropertyDescriptor(Function.prototype, "caller");
const d2 = Object.getOwnPropertyDescriptor(Function.prototype, "arguments");
out.push(d1.get === d2.set, d1.enumerable, d1.configurable, d1.get.name === "", d1.get.length, Object.isExtensible(d1.get), Object.isFrozen(d1.get));
const f = function () {};
const o = new f();
out.push(f[Symbol.hasInstance](o), f[Symbol.hasInstance](Object.create(o)), f[Symbol.hasInstance](1), Function.prototype[Symbol.hasInstance].call({}, o));
const hd = Object.getOwnPropertyDescriptor(Function.prototype, Symbol.hasInstance);
out.push(hd.writable, hd.enumerable, hd.configurable, hd.value.name, hd.value.length);
const b = f.bind(null);
out.push(f[Symbol.hasInstance].call(b, o));
const g = function () {}; g.prototype = 1;
try { ({}) instanceof g; } catch (e) { out.push(e.constructor.name); }
out.push(1 instanceof g);
const F = function (x) { return new Boolean(x === 1); };
const B = Function.prototype.bind.call(F, {});
out.push(new B(1).valueOf(), typeof new Boolean(true).valueOf());
return out;
