const seen = typeof later;
var later = 5;
function f() {
  if (true) {
    var inner = "function-scoped";
  }
  return inner;
}
return { seen, later, inner: f() };
