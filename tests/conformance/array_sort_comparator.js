const nums = [10, 1, 5, 100, 25];
const asc = [...nums].sort((a, b) => a - b);
const desc = [...nums].sort((a, b) => b - a);
const lexical = [...nums].sort();
const people = [
  { name: "b", age: 30 },
  { name: "a", age: 25 },
  { name: "c", age: 30 },
  { name: "d", age: 25 },
];
const stable = [...people].sort((x, y) => x.age - y.age).map(p => p.name);
const byName = [...people].sort((x, y) => (x.name < y.name ? 1 : x.name > y.name ? -1 : 0)).map(p => p.name);
const strings = ["banana", "Apple", "cherry", "apple"].sort();
return { asc, desc, lexical, stable, byName, strings, inPlace: nums.sort((a, b) => a - b) === nums };
