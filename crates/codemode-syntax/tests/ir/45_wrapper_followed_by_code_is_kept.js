async () => {
  return 1;
};
console.log("a second statement: no unwrapping");
