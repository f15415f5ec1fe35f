let total = 0;
if (total > 0) total = 1;
else if (total < 0) total = -1;
else {
  total = 0;
}
while (total < 10) {
  total++;
  if (total === 5) continue;
  if (total === 8) break;
}
do {
  total--;
} while (total > 0);
for (;;) {
  break;
}
for (total = 0; total < 2; total++);
for (var i = 0, j = 1; i < j; i++) {}
total;
