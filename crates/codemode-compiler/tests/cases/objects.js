const key = "dyn";
const base = { x: 1 };
const o = { ...base, [key]: 2, y: 3, get z() { return this.y * 2; }, m() { return this.x; } };
delete o.x;
return [o.z, o.m(), Object.keys(o), "y" in o, typeof o.m];
