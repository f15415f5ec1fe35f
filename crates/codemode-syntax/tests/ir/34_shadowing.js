let x = "outer";
{
  let x = "block";
  x;
}
function f(x) {
  {
    const x = 2;
    return () => x;
  }
}
try {} catch (x) { x; }
for (let x = 0; x < 1; x++) { let y = x; }
x;
