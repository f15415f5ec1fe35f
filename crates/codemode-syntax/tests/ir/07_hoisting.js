const early = helper(2);
var hoisted;
later = 5;
function helper(x) {
  return x * twice(x);
}
{
  blockFn();
  function blockFn() {
    return "block";
  }
}
if (early) {
  var inIf = 1;
}
function twice(x) { return 2 * x; }
var later;
early + inIf + later;
