const kind = await tools.kind({});
let result;
switch (kind) {
  case "a":
  case "b": {
    result = 1;
    break;
  }
  default:
    result = 0;
  case "c":
    let local = 2;
    const helper = () => local;
    result = helper();
    break;
  case `d`:
    function inCase() { return local; }
    result = inCase();
}
result;
