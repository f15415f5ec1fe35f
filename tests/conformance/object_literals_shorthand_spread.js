const x = 1, y = 2;
const base = { a: 1, b: 2 };
const key = "dyn";
const obj = { x, y, ...base, b: 3, [key + "amic"]: true, "quoted key": "q", 42: "num" };
const copy = { ...obj, x: 10 };
return { obj, copy, spreadNull: { ...null, ...undefined, z: 1 } };
