function validate(n) {
  if (n < 0) throw new Error("x");
  return n;
}
console.log("validating");
validate(-1);
return "unreachable";
