let sum = 0;
for (let i = 1; i <= 10; i++) sum += i;
const evens = [];
for (let i = 0; i < 20; i += 2) {
  if (i === 10) continue;
  if (i > 14) break;
  evens.push(i);
}
let a, b;
for (a = 0, b = 10; a < b; a++, b--);
let n = 0;
for (;;) {
  if (++n >= 5) break;
}
return { sum, evens, a, b, n };
