// Object.prototype.__defineGetter__/__defineSetter__/__lookupGetter__/__lookupSetter__ (were missing).
const o = {};
o.__defineGetter__("x", function () { return 7; });
o.__defineSetter__("y", function (v) { this._y = v * 2; });
o.y = 5;
const child = Object.create(o);
const d = Object.getOwnPropertyDescriptor(o, "x");
return [o.x, o._y, typeof child.__lookupGetter__("x"), child.__lookupGetter__("x") === d.get, child.__lookupSetter__("x"), typeof o.__lookupSetter__("y"), ({ a: 1 }).__lookupGetter__("a"), d.enumerable, d.configurable, "ab".__lookupGetter__("length"), Object.keys(o)];
