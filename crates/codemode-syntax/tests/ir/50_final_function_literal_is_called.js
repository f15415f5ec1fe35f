const n = 2;
x => x * n
