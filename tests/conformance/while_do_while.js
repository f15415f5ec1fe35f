let n = 27;
let steps = 0;
while (n !== 1) {
  n = n % 2 === 0 ? n / 2 : 3 * n + 1;
  steps++;
}
let runs = 0;
do {
  runs++;
} while (false);
let x = 0;
do x += 3; while (x < 10);
return { steps, runs, x };
