const text = "John Smith, Jane Doe";
const upper = text.replace(/(\w+) (\w+)/g, (m, first, last, offset) => `${last.toUpperCase()} ${first}@${offset}`);
let calls = 0;
const counted = "a-b-c".replaceAll("-", () => { calls++; return "+"; });
return {
  swap: text.replace(/(\w+) (\w+)/, "$2, $1"),
  swapAll: text.replace(/(\w+) (\w+)/g, "$2 $1"),
  named: "2024-05-17".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, "$<d>/$<m>/$<y>"),
  special: "abc".replace("b", "[$&|$`|$'|$$]"),
  replaceAll: "a.b.c".replaceAll(".", "/"),
  replaceAllRegex: "aaa".replaceAll(/a/g, "b"),
  emptyPattern: "abc".replace("", "-"),
  emptyAll: "abc".replaceAll("", "-"),
  upper,
  counted,
  calls,
  fnNamed: "k=v".replace(/(?<key>\w)=(?<val>\w)/, (...args) => JSON.stringify(args[args.length - 1])),
  noMatch: "abc".replace(/z/g, "y"),
  dollarDigits: "abc".replace(/(b)/, "$1$2$01$10"),
  caseInsensitive: "Hello HELLO hello".replace(/hello/gi, "hi"),
  unicode: "héllo wörld".replace(/ö/, "o").replace("é", "e"),
};
