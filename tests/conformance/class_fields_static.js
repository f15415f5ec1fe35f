let order = [];
class Base {
  a = (order.push("Base field"), 1);
  constructor() {
    order.push("Base ctor");
  }
}
class Derived extends Base {
  b = (order.push("Derived field"), this.a + 1);
  onClick = () => this.b * 10;
  constructor() {
    order.push("Derived ctor start");
    super();
    order.push("Derived ctor end");
  }
}
const d = new Derived();
const handler = d.onClick;
class Config {
  static defaults = { retries: 3 };
  static #secret = 42;
  static count;
  static {
    Config.count = Object.keys(Config.defaults).length;
  }
  static reveal() {
    return Config.#secret;
  }
  #helper() {
    return "private method";
  }
  callHelper() {
    return this.#helper();
  }
}
const Named = class Inner {
  who() {
    return Inner.name;
  }
};
const Anon = class {};
class WithTarget {
  constructor() {
    this.t = new.target === WithTarget;
  }
}
class Sub extends WithTarget {}
return {
  order,
  fields: [d.a, d.b, handler()],
  defaults: Config.defaults,
  count: Config.count,
  secret: Config.reveal(),
  helper: new Config().callHelper(),
  named: [new Named().who(), Named.name, Anon.name],
  target: [new WithTarget().t, new Sub().t],
  keys: Object.keys(d),
};
