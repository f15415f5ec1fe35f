function counter() {
  let n = 0;
  return () => ++n;
}
const fns = [];
for (let i = 0; i < 3; i++) fns.push(() => i);
const c = counter();
c();
return [c(), fns.map(f => f())];
