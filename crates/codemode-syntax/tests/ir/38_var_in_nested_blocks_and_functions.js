function outer() {
  if (true) {
    var a = 1;
    {
      var b = a;
    }
  }
  for (var i = 0; i < 1; i++) { var c = i; }
  try { var d = 1; } catch (e) { var e2 = e; } finally { var f; }
  switch (0) { case 0: var g = 0; }
  return a + b + c + d + g + (typeof e2) + f;
}
outer();
