const people = [{ name: "ann", age: 31 }, { name: "bob", age: 17 }, { name: "cy", age: 45 }];
const names = [];
people.forEach((p, i) => names.push(`${i}:${p.name}`));
return {
  names,
  find: people.find(p => p.age > 40),
  findMissing: people.find(p => p.age > 100) ?? "none",
  findIndex: people.findIndex(p => p.name === "bob"),
  findIndexMissing: people.findIndex(p => p.name === "zed"),
};
