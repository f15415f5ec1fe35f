let a = 1, b = 2;
const target = { list: [] };
[a, b] = [b, a];
({ a, b: target.x, c: target["y"] = 5, ...target.rest } = { a: 3, b: 4 });
[target.list[0], , ...target.list2] = [1, 2, 3];
({ a = 10 } = {});
a + b;
