const callbacks = [];
for (let i = 0; i < 3; i++) {
  callbacks.push(() => i);
}
for (let j = 0, k = 10; j < k; j++) {
  // `j` is not captured: no per-iteration copy.
  callbacks.length;
}
for (var v = 0; v < 3; v++) {
  callbacks.push(() => v);
}
for (const item of [1, 2]) {
  callbacks.push(() => item);
}
let n = 0;
while (n < 3) {
  let copy = n++;
  callbacks.push(() => copy);
}
callbacks.map((f) => f());
