// expect: {"d":"Circle with area 12.57","label":"c","r":2,"keys":["r","label"],"size":2,"name":"n","max":2,"ckeys":["store","name"]}
abstract class Shape {
  abstract area(): number;
  describe(): string { return `${this.constructor.name} with area ${this.area().toFixed(2)}`; }
}
class Circle extends Shape {
  constructor(private readonly r: number, public label: string = "c") { super(); }
  area(): number { return Math.PI * this.r ** 2; }
}
class Cache<T> {
  private store = new Map<string, T>();
  static readonly MAX: number = 2;
  declare extra: string;
  constructor(public name: string) {}
  set(k: string, v: T): this { this.store.set(k, v); return this; }
  get size(): number { return this.store.size; }
}
const c = new Circle(2);
const cache = new Cache<number>("n").set("a", 1).set("b", 2);
return { d: c.describe(), label: c.label, r: (c as any).r, keys: Object.keys(c), size: cache.size, name: cache.name, max: Cache.MAX, ckeys: Object.keys(cache) };
