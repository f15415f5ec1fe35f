const log = [];
function* guarded() {
  try {
    yield 1;
    yield 2;
  } finally {
    log.push("cleanup");
  }
}
const a = guarded();
const early = [a.next(), a.return("stop"), a.next()];
const b = guarded();
const beforeStart = [b.return("never started"), b.next()];
function* catching() {
  let n = 0;
  while (true) {
    try {
      yield n++;
    } catch (e) {
      log.push("caught " + e);
    }
  }
}
const c = catching();
const caught = [c.next(), c.throw("x"), c.throw("y"), c.next()];
const d = guarded();
d.next();
let escaped;
try {
  d.throw(new Error("out"));
} catch (e) {
  escaped = e.message;
}
const afterThrow = d.next();
function* yieldInFinally() {
  try {
    yield "body";
  } finally {
    yield "finally";
    log.push("after finally yield");
  }
}
const e = yieldInFinally();
const finallyYield = [e.next(), e.return("r"), e.next(), e.next()];
function* overrideReturn() {
  try {
    yield 1;
  } finally {
    return "from finally";
  }
}
const f = overrideReturn();
f.next();
const overridden = f.return("ignored");
function* bodyThrows() {
  yield 1;
  throw new RangeError("bad");
}
const h = bodyThrows();
h.next();
let thrown;
try {
  h.next();
} catch (err) {
  thrown = err.name;
}
const thrownThenDone = h.next();
const i = guarded();
let notStartedThrow;
try {
  i.throw("first");
} catch (err) {
  notStartedThrow = err;
}
function* selfRef() {
  try {
    it.next();
  } catch (err) {
    yield err.constructor.name;
  }
}
const it = selfRef();
return {
  early,
  beforeStart,
  caught,
  escaped,
  afterThrow,
  finallyYield,
  overridden,
  thrown,
  thrownThenDone,
  notStartedThrow,
  notStartedAfter: i.next(),
  running: it.next().value,
  log,
};
