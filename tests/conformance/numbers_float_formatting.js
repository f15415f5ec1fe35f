const values = [0.1 + 0.2, 1 / 3, 2.5, 100, 1e21, 1.5e-7, 123456789.125, -4.75, 0.000001, 5e-324];
console.log(values.map(v => String(v)).join(" "));
console.log(`${0.1 * 3} ${10 / 4} ${2 ** 0.5}`);
return values;
