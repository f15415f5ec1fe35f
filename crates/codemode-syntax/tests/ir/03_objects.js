const key = "dynamic";
const shorthand = 1;
const obj = {
  shorthand,
  plain: 1,
  "quoted key": 2,
  42: "answer",
  1.5: "one and a half",
  [key]: 3,
  [`${key}2`]: 4,
  ...{ spread: true },
  method(x) { return x + this.plain; },
  async asyncMethod() { return await this.method(1); },
  get size() { return 5; },
  set size(value) { this.plain = value; },
  arrow: () => shorthand,
  named: function () {},
};
obj;
