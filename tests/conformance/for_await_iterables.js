// for await over [Symbol.asyncIterator] objects, async generators, arrays of promises and sync iterables.
const out = [];
const ai = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => i < 3 ? { value: i++, done: false } : { done: true } } } };
for await (const x of ai) out.push(x);
async function* ag() { yield 1; yield 2 }
for await (const x of ag()) out.push(x);
for await (const x of [Promise.resolve(5), 6]) out.push(x);
class R { *[Symbol.iterator]() { yield Promise.resolve(7); yield 8 } }
for await (const x of new R()) out.push(x);
const paged = { async *[Symbol.asyncIterator]() { for (let p = 0; p < 2; p++) yield* [p * 10, p * 10 + 1] } };
for await (const x of paged) out.push(x);
return out;
