// A function's `name` and `length` are own, non-writable, non-enumerable, configurable
// properties: they can be described, redefined and deleted.
function foo(a, b = 1, c) {}
const out = [];
out.push(foo.hasOwnProperty("name"), Object.hasOwn(foo, "length"), foo.name, foo.length);
const d = Object.getOwnPropertyDescriptor(foo, "name");
out.push([d.value, d.writable, d.enumerable, d.configurable]);
out.push(delete foo.name, foo.name, foo.hasOwnProperty("name"));
Object.defineProperty(foo, "length", { value: 9 });
out.push(foo.length, Object.getOwnPropertyDescriptor(foo, "length").writable);
out.push(Math.max.hasOwnProperty("length"), Math.max.length, Object.getOwnPropertyDescriptor(Math.max, "name").value);
class K { static name() { return "static"; } }
out.push(typeof K.name, K.hasOwnProperty("name"));
const arrow = (x, y) => x;
out.push(arrow.hasOwnProperty("name"), arrow.name, arrow.length);
out.push(Object.keys(foo).length, JSON.stringify(Object.entries(function q() {})));
out.push(Function.prototype.name === "", Function.prototype.length);
const frozen = Object.freeze(function z(p) {});
out.push(Object.isFrozen(frozen), frozen.name, Object.getOwnPropertyDescriptor(frozen, "length").configurable);
return out;
