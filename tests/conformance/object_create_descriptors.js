// Object.create with property descriptors (attributes, accessors) and its errors.
const o = Object.create({ inherited: 1 }, { a: { value: 1, enumerable: true }, b: { get() { return 2 } }, c: { value: 3, writable: true, configurable: true } });
const out = [o.a, o.b, o.c, Object.keys(o), Object.getOwnPropertyDescriptor(o, "a").configurable, Object.getOwnPropertyDescriptor(o, "c").writable, o.inherited];
try { Object.create({}, null) } catch (e) { out.push(e.constructor.name) }
try { Object.create({}, { x: 1 }) } catch (e) { out.push(e.constructor.name) }
return out;
