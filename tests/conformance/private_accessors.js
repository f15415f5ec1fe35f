// Private getters and setters (instance and static), #x in o, a getter without a setter.
class Temp {
  #c = 0;
  get #f() { return this.#c * 9 / 5 + 32 }
  set #f(v) { this.#c = (v - 32) * 5 / 9 }
  get #ro() { return "ro" }
  static get #s() { return "static" }
  setF(v) { this.#f = v; return this.#f }
  read() { return [this.#f, this.#ro, Temp.#s] }
  tryWrite() { try { this.#ro = 1 } catch (e) { return e.constructor.name } }
  static has(o) { return #f in o }
}
const t = new Temp();
return [t.read(), t.setF(212), t.read(), t.tryWrite(), Temp.has(t), Temp.has({}), Object.keys(t)];
