class Counter {
  #count = 0;
  static instances = 0;
  label = "c";
  constructor(start = 0) {
    this.#count = start;
    Counter.instances++;
  }
  inc() {
    this.#count++;
    return this;
  }
  get value() {
    return this.#count;
  }
  set value(v) {
    this.#count = v * 2;
  }
  static create() {
    return new Counter(10);
  }
  has(o) {
    return #count in o;
  }
}
const c = Counter.create().inc().inc();
const before = c.value;
c.value = 7;
let noNew;
try {
  Counter();
} catch (e) {
  noNew = [e.name, e.message];
}
let brand;
try {
  Counter.prototype.inc.call({});
} catch (e) {
  brand = e.name;
}
return {
  before,
  after: c.value,
  instances: Counter.instances,
  keys: Object.keys(c),
  label: c.label,
  noNew,
  brand,
  has: [c.has(c), c.has({})],
  json: JSON.stringify(c),
  protoKeys: Object.keys(Counter.prototype),
  ownNames: Object.getOwnPropertyNames(Counter.prototype).sort(),
  typeofClass: typeof Counter,
  name: Counter.name,
  length: Counter.length,
  ctorLink: c.constructor === Counter,
  inst: c instanceof Counter,
};
