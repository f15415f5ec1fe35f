let calls = 0;
const src = {
  a: 1,
  get b() {
    calls++;
    return this.a + 1;
  },
  c: 3,
};
class Temp {
  constructor(c) {
    this.celsius = c;
  }
  get fahrenheit() {
    return this.celsius * 1.8 + 32;
  }
}
const t = new Temp(100);
const { a, ...rest } = src;
const assigned = Object.assign({}, { x: 0 }, src, { get y() { return "y" } });
return {
  spread: { ...src },
  entries: Object.entries(src),
  values: Object.values(src),
  keys: Object.keys(src),
  rest,
  assigned,
  calls,
  classGetterSpread: { ...t },
  classGetterRead: t.fahrenheit,
  json: JSON.stringify(src),
};
