const o = { n: 1 };
const a = [5];
const r1 = o.n++;
const r2 = ++o.n;
const r3 = a[0]--;
const r4 = --a[0];
let s = "5";
s++;
return { o, a, r1, r2, r3, r4, s };
