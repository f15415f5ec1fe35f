async function double(x) {
  return x * 2;
}
const triple = async x => x * 3;
async function chain(x) {
  const a = await double(x);
  const b = await triple(a);
  return b + 1;
}
const p = double(5);
const isPromise = p instanceof Promise;
return { double: await p, chain: await chain(2), isPromise, plain: await 7 };
