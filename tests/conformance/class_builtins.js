class Stack extends Array {
  peek() {
    return this[this.length - 1];
  }
}
const s = new Stack();
s.push(1, 2, 3);
class Registry extends Map {
  register(k, v) {
    return this.set(k, v);
  }
}
const r = new Registry();
r.register("a", 1).register("b", 2);
class Deferred extends Promise {}
class HttpError extends Error {
  constructor(status, message, options) {
    super(message, options);
    this.status = status;
  }
  get retryable() {
    return this.status >= 500;
  }
}
const e = new HttpError(503, "unavailable", { cause: "upstream" });
return {
  peek: s.peek(),
  len: s.length,
  isArray: Array.isArray(s),
  isStack: s instanceof Stack,
  size: r.size,
  entries: [...r.entries()],
  isMap: r instanceof Map,
  err: [e.status, e.message, e.retryable, e.cause, e instanceof HttpError, e.name],
  awaited: await Deferred.resolve(5),
};
