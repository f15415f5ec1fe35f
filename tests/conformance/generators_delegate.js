const log = [];
function* inner() {
  const x = yield "i1";
  log.push("inner got " + x);
  yield "i2";
  return "inner result";
}
function* outer() {
  yield "o1";
  const r = yield* inner();
  log.push("outer got " + r);
  yield* ["a", "b"];
  yield* "hi";
  return "outer result";
}
const g = outer();
const steps = [];
for (let s = g.next(); ; s = g.next("sent" + steps.length)) {
  steps.push(s);
  if (s.done) break;
}
function* tree(node) {
  if (!node) return;
  yield* tree(node.left);
  yield node.value;
  yield* tree(node.right);
}
const t = {
  value: 4,
  left: { value: 2, left: { value: 1 }, right: { value: 3 } },
  right: { value: 6, left: { value: 5 } },
};
function* catcher() {
  try {
    yield "c1";
    yield "c2";
  } catch (e) {
    log.push("inner caught " + e);
    yield "recovered";
  } finally {
    log.push("inner finally");
  }
}
function* wrap() {
  try {
    yield* catcher();
  } finally {
    log.push("wrap finally");
  }
}
const w = wrap();
const delegatedThrow = [w.next(), w.throw("E"), w.next()];
const w2 = wrap();
const delegatedReturn = [w2.next(), w2.return("R"), w2.next()];
function* overArray() {
  yield* [1, 2];
}
const ar = overArray();
ar.next();
let noThrow;
try {
  ar.throw("z");
} catch (e) {
  noThrow = e instanceof TypeError;
}
return {
  steps,
  inOrder: [...tree(t)],
  delegatedThrow,
  delegatedReturn,
  noThrow,
  log,
};
