// Object.assign converts a primitive target to its wrapper (ToObject).
const a = Object.assign("a");
const b = Object.assign(1, { x: 2 });
const c = Object.assign(true);
return [typeof a, a.valueOf(), a.length, typeof b, b.x, b + 1, typeof c, c.valueOf(), typeof Object.assign(Symbol("s"))];
