let counter = 0;
const unused = 1;
function outer(a) {
  let local = a;
  function middle() {
    return function inner() {
      counter++;
      return local + a + counter;
    };
  }
  return middle;
}
outer(1)()();
