// `yield*` in an async generator: program-defined async iterables, synchronous iterables
// (whose values, promises included, arrive settled), return/throw forwarding, `next` read once,
// and non-object results as TypeErrors.
const log = [];
function asyncSource(n) {
  return {
    [Symbol.asyncIterator]() {
      let i = 0;
      log.push("asyncIterator");
      return {
        get next() {
          log.push("get next");
          return (v) => {
            log.push("next " + String(v));
            i++;
            return Promise.resolve({ value: i * 10, done: i > n });
          };
        },
        return(v) {
          log.push("return " + String(v));
          return Promise.resolve({ value: "closed:" + v, done: true });
        },
        throw(e) {
          log.push("throw " + e);
          return Promise.resolve({ value: "caught", done: false });
        },
      };
    },
  };
}

async function* outer(src) {
  const r = yield* src;
  log.push("inner returned " + String(r));
  return "end";
}

const all = [];
for await (const v of outer(asyncSource(3))) all.push(v);

// Values sent through `next(v)` reach the inner iterator.
const g = outer(asyncSource(5));
const sent = [await g.next("ignored"), await g.next("a"), await g.next("b")];

// `return` and `throw` are forwarded.
const g2 = outer(asyncSource(5));
await g2.next();
const thrown = await g2.throw("boom");
const returned = await g2.return("bye");
const after = await g2.next();

// A synchronous iterable: promises among its values arrive settled.
async function* fromSync() {
  const r = yield* [1, Promise.resolve(2), 3];
  return r;
}
const syncValues = [];
for await (const v of fromSync()) syncValues.push(v);

const syncGen = function* () {
  yield Promise.resolve("p");
  return Promise.resolve("ret");
};
async function* fromSyncGen() {
  const r = yield* syncGen();
  yield "after:" + r;
}
const syncGenValues = [];
for await (const v of fromSyncGen()) syncGenValues.push(v);

// Delegating to another async generator.
async function* inner() {
  yield "x";
  yield "y";
  return "z";
}
async function* viaGen() {
  const r = yield* inner();
  yield r;
}
const viaGenValues = [];
for await (const v of viaGen()) viaGenValues.push(v);

// A result that is not an object is a TypeError; so is an iterator that is not an object.
async function* bad(src) {
  yield* src;
}
const badResult = await bad({ [Symbol.asyncIterator]: () => ({ next: () => 42 }) })
  .next()
  .then(() => "fulfilled", (e) => e.constructor.name);
const badIterator = await bad({ [Symbol.asyncIterator]: () => 7 })
  .next()
  .then(() => "fulfilled", (e) => e.constructor.name);
const notIterable = await bad({})
  .next()
  .then(() => "fulfilled", (e) => e.constructor.name);

return { all, sent, thrown, returned, after, syncValues, syncGenValues, viaGenValues, badResult, badIterator, notIterable, log };
