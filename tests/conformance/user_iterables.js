// Program-defined iterables: [Symbol.iterator]() and next() in for-of, spread, destructuring,
// Array.from and the built-ins that take an iterable; return() when a loop ends early.
const out = [];
class Range {
  constructor(n) { this.n = n }
  [Symbol.iterator]() {
    let i = 0;
    const n = this.n;
    return {
      next: () => (i < n ? { value: i++, done: false } : { value: undefined, done: true }),
      return() { out.push("closed"); return {} },
    };
  }
}
for (const x of new Range(3)) out.push(x);
out.push([...new Range(4)]);
const [a, b, ...rest] = new Range(5);
out.push(a, b, rest);
for (const x of new Range(10)) { if (x == 2) break; out.push("b" + x) }
const gen = { *[Symbol.iterator]() { yield 1; yield 2 } };
out.push([...gen], Array.from(gen), Array.from(new Range(3), x => x * 2));
out.push(Math.max(...new Range(4)));
out.push(new Map([[1, 2]])[Symbol.iterator]().next().value);
out.push([..."héllo"], typeof [][Symbol.iterator], [][Symbol.iterator] === [].values);
const it = [1, 2, 3][Symbol.iterator]();
out.push(it[Symbol.iterator]() === it, [...it]);
out.push(new Set(new Range(3)).size, [...new Map(new Range(0))].length);
out.push(Object.fromEntries({ *[Symbol.iterator]() { yield ["a", 1] } }));
out.push(await Promise.all(new Range(3)));
const lazy = { from: 1, to: 4, [Symbol.iterator]() { return this }, next() { return this.from <= this.to ? { done: false, value: this.from++ } : { done: true } } };
out.push([...lazy]);
function* inner() { yield* new Range(2); }
out.push([...inner()]);
for (const ch of "ab") out.push(ch);
try { for (const x of {}) {} } catch (e) { out.push(e.constructor.name) }
try { for (const x of { [Symbol.iterator]() { return 1 } }) {} } catch (e) { out.push(e.constructor.name) }
try { for (const x of { [Symbol.iterator]() { return { next() { return 1 } } } }) {} } catch (e) { out.push(e.constructor.name) }
try { [...{ [Symbol.iterator]: 5 }] } catch (e) { out.push(e.constructor.name) }
return out;
