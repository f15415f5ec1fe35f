const withLet = [];
for (let i = 0; i < 3; i++) withLet.push(() => i);
const withVar = [];
for (var j = 0; j < 3; j++) withVar.push(() => j);
const forOf = [];
for (const x of ["a", "b"]) forOf.push(() => x);
let mutated = [];
for (let k = 0; k < 3; k++) {
  mutated.push(() => k);
  k++;
}
return {
  withLet: withLet.map(f => f()),
  withVar: withVar.map(f => f()),
  forOf: forOf.map(f => f()),
  mutated: mutated.map(f => f()),
};
