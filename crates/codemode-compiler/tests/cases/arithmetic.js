let sum = 0;
for (let i = 0; i < 10; i++) {
  if (i % 3 === 0) sum += i * 2; else sum -= 1;
}
return sum;
