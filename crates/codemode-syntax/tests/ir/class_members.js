class Base { constructor(x) { this.x = x; } get double() { return this.x * 2; } }
class Point extends Base {
  #secret = 1;
  y = 2;
  static count = 0;
  static { Point.count = 1; }
  constructor(x) { super(x); }
  sum() { return super.double + this.#secret + this.y; }
  static make() { return new Point(1); }
  has(o) { return #secret in o; }
}
