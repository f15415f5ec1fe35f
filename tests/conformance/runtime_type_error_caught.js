const results = [];
try {
  const notFn = undefined;
  notFn();
} catch (e) {
  results.push([e instanceof TypeError, e instanceof Error, e.name]);
}
try {
  const o = null;
  o.prop;
} catch (e) {
  results.push([e instanceof TypeError, e.name]);
}
try {
  const o = {};
  o.missing.deeper;
} catch (e) {
  results.push([e instanceof TypeError, e.name]);
}
try {
  const num = 5;
  num();
} catch (e) {
  results.push([e instanceof TypeError, e.name]);
}
try {
  undeclaredVariable + 1;
} catch (e) {
  results.push([e instanceof ReferenceError, e.name]);
}
return results;
