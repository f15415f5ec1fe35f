function readsLater() {
  return value;
}
before();
let value = 1;
const copy = value;
const selfRef = () => selfRef;
let tricky = (() => tricky)();
{
  use();
  let scoped = 2;
  function use() { return scoped; }
  scoped;
}
switch (value) {
  case 1:
    let inCase = 1;
    inCase;
    break;
  default:
    inCase;
}
function before() {}
