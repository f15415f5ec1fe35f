let a = 1;
a = a + 1;
const b = 10;
var c = "var";
{
  let a = 100;
  const b = 200;
  c = c + a + b;
}
return { a, b, c };
