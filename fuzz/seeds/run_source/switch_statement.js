function label(x) {
  switch (x) {
    case 1:
      return "one";
    case 2:
    case 3:
      return "two or three";
    case "1":
      return "string one";
    default:
      return "other";
  }
}
function fall(n) {
  const out = [];
  switch (n) {
    case 0:
      out.push(0);
    case 1:
      out.push(1);
      break;
    case 2:
      out.push(2);
  }
  return out;
}
function defaultFirst(v) {
  switch (v) {
    default:
      return "default";
    case "a":
      return "a";
  }
}
return [label(1), label(3), label("1"), label(null), fall(0), fall(1), fall(2), fall(5), defaultFirst("a"), defaultFirst("b")];
