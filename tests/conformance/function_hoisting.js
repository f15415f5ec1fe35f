const early = square(4);
function square(n) {
  return n * n;
}
function outer() {
  return inner() + 1;
  function inner() {
    return 41;
  }
}
return { early, outer: outer(), typeofLate: typeof late };
function late() {}
