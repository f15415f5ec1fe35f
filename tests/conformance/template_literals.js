const name = "world";
const n = 3;
const obj = { a: 1 };
const nested = `outer ${`inner ${n * 2}`} end`;
const multi = `line one
line two`;
return [`hello ${name}!`, `${n} + ${n} = ${n + n}`, nested, multi, `${obj.a}${null}${undefined}${true}`, `${[1, 2, 3]}`];
