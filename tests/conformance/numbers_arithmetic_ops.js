let i = 5;
const post = i++;
const pre = ++i;
const dec = i--;
return {
  add: 7 + 3,
  sub: 7 - 10,
  mul: 6 * 7,
  div: 7 / 2,
  mod: 17 % 5,
  negMod: -17 % 5,
  floatMod: 5.5 % 2,
  exp: 2 ** 10,
  expRight: 2 ** 3 ** 2,
  precedence: 2 + 3 * 4 - 6 / 2,
  parens: (2 + 3) * 4,
  unaryMinus: -(-3),
  unaryPlus: +"42",
  post, pre, dec, i,
  stringConcat: "a" + 1 + 2,
  numberFirst: 1 + 2 + "a",
};
