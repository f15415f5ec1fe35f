let sum = 0;
for (let i = 0; i < 30000; i++) {
  if (i % 3 === 0) sum += i * 2; else if (i % 5 === 1) sum -= i; else sum += 1;
}
return sum;
