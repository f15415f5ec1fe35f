function makeCounter(start) {
  let count = start;
  return {
    inc: () => ++count,
    dec: () => --count,
    get: () => count,
  };
}
const a = makeCounter(0);
const b = makeCounter(100);
a.inc();
a.inc();
b.dec();
a.inc();
return { a: a.get(), b: b.get() };
