// Typed arrays built from every kind of source: program-defined iterables, generators, Sets,
// array-likes, strings; `set` reads its source as an array-like and never iterates it.
// (Before: `new Float64Array({ [Symbol.iterator]… })` came back empty.)
const out = {};
const src = [40, 41, 42];
const iterable = { [Symbol.iterator]() { return src[Symbol.iterator](); } };
out.fromIterableObject = Array.from(new Float64Array(iterable));
function* gen() { yield 1; yield 2; yield 300; }
out.fromGenerator = Array.from(new Uint8Array(gen()));
let reads = 0;
const counted = {
  [Symbol.iterator]() {
    let i = 0;
    return { next() { reads++; return { done: i >= 3, value: i++ * 2 }; } };
  },
};
out.fromCustomIterator = [Array.from(Uint8Array.from(counted)), reads];
out.fromArrayLike = Array.from(new Int16Array({ length: 3, 0: 5, 1: "6", 2: 7.9 }));
out.fromSet = Array.from(Float32Array.from(new Set([1.5, 2.5, 1.5])));
out.fromString = Array.from(Uint8Array.from("1234"));
out.fromMapKeys = Array.from(new Uint8Array(new Map([[1, 2], [3, 4]]).keys()));
out.fromWithMap = Array.from(Int8Array.from(gen(), (v, i) => v + i));
out.bigintFromIterable = BigInt64Array.from({ [Symbol.iterator]: () => [1n, 2n][Symbol.iterator]() }).join(",");
const target = new Uint8Array(5);
target.set({ length: 2, 0: 9, 1: 8 }, 1);
target.set(new Set([7]), 3); // a Set has no length: nothing is written
out.setArrayLike = Array.from(target);
const throwing = { [Symbol.iterator]() { return { next() { throw new RangeError("next failed"); } }; } };
try {
  new Uint8Array(throwing);
  out.throwingIterator = "no error";
} catch (e) {
  out.throwingIterator = `${e.name}: ${e.message}`;
}
try {
  new Uint8Array({ [Symbol.iterator]: 5 });
  out.nonCallableIterator = "no error";
} catch (e) {
  out.nonCallableIterator = e.name;
}
return out;
