const log = [];
async function* ticker(n) {
  try {
    for (let i = 0; i < n; i++) {
      await null;
      const got = yield i;
      if (got !== undefined) log.push("got " + got);
    }
    return "end";
  } finally {
    log.push("finally");
  }
}
const out = [];
for await (const x of ticker(3)) out.push(x);
const g = ticker(5);
const manual = [await g.next(), await g.next("a"), await g.return("r"), await g.next()];
const fromArr = [];
for await (const x of [1, Promise.resolve(2), 3]) fromArr.push(x);
async function* failing() { yield 1; throw new Error("bad"); }
let caught;
try { for await (const x of failing()) out.push(x * 10); } catch (e) { caught = e.message; }
const early = [];
for await (const x of ticker(10)) { if (x === 2) break; early.push(x); }
async function* delegating() { yield* ticker(2); yield* [7, 8]; }
const del = [];
for await (const x of delegating()) del.push(x);
const q = ticker(3);
const parallel = await Promise.all([q.next(), q.next(), q.next(), q.next()]);
const t = ticker(3); await t.next();
let thrown; try { await t.throw(new Error("in")); } catch (e) { thrown = e.message; }
const order = [];
async function* sync() { order.push("body"); yield 1; }
const s = sync(); order.push("created"); const p = s.next(); order.push("after next"); await p; order.push("settled");
let syncErr; try { for (const x of sync()) {} } catch (e) { syncErr = e.constructor.name; }
async function* returnsPromise() { yield 1; return Promise.resolve("settled"); }
const rp = returnsPromise();
await rp.next();
const returned = await rp.next();
return { returned, out, manual, fromArr, caught, early, del, parallel, thrown, order, syncErr, log };
