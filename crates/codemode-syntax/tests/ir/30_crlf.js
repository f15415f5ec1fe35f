let a = 1;
let b = 2;

const sum = a +
  b;
sum
