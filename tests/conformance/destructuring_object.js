const user = { name: "Ada", age: 36, address: { city: "London" } };
const { name, age } = user;
const { name: renamed } = user;
const { address: { city } } = user;
let a, b;
({ a, b } = { a: 1, b: 2 });
return { name, age, renamed, city, a, b };
