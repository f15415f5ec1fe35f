const a = [1, 2, 3];
const b = [0, ...a, 4];
const c = [...b, ...[5, 6]];
const copy = [...a];
copy.push(99);
return { b, c, a, copy, chars: [..."hey"], nested: [[1, [2]], [3]] };
