class Money {
  constructor(cents) {
    this.cents = cents;
  }
  valueOf() {
    return this.cents;
  }
  toString() {
    return `$${(this.cents / 100).toFixed(2)}`;
  }
}
class Version {
  constructor(s) {
    this.s = s;
  }
  toString() {
    return "v" + this.s;
  }
}
const a = new Money(150);
const b = new Money(275);
const v = new Version("1.2");
const weird = { valueOf() { return {}; }, toString() { return "fallback"; } };
let bad;
try {
  `${{ toString() { return {}; }, valueOf() { return {}; } }}`;
} catch (e) {
  bad = [e.name, e.message];
}
const order = [];
const l = { valueOf() { order.push("l"); return 1; } };
const r = { valueOf() { order.push("r"); return 2; } };
const sum = l + r;
let branch = "no";
if (a < b) branch = "yes";
let branchInt = "no";
if (b > 200) branchInt = "yes";
return {
  sum: a + b,
  concat: "total: " + a,
  template: `${a} and ${v}`,
  times: a * 2,
  minus: b - a,
  neg: -a,
  lt: a < b,
  eq: a == 150,
  strictEq: a === 150,
  branch,
  branchInt,
  weird: `${weird}` + "|" + (weird + ""),
  bad,
  order,
  sumLR: sum,
  version: String(v),
  num: Number(a),
  dateLike: { valueOf: () => 42 } * 1,
};
