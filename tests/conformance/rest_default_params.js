function greet(name = "anon", greeting = `hi ${name}`) {
  return greeting;
}
function count(first, ...rest) {
  return `${first}:${rest.length}:${rest.join("+")}`;
}
const lenOf = (...args) => args.length;
return [greet(), greet("bo"), greet(undefined, "yo"), greet(null), count(1), count(1, 2, 3), lenOf(), lenOf(...[1, 2])];
