const people = [];
for (let i = 0; i < 30; i++) people.push({ name: "p" + i, age: i % 4 });
const sorted = people.slice().sort((a, b) => a.age - b.age).map(p => p.name);
const words = ["banana", "Apple", "cherry", "apple", "Banana"].sort();
const nums = [10, 9, 1, 100, 25].sort();
const desc = [3, 1, 2].sort((a, b) => b - a);
const mixed = [3, undefined, 1, undefined, 2].sort();
return { sorted, words, nums, desc, mixed, strCmp: ["b", "a", "c"].sort((a, b) => a.localeCompare(b)) };
