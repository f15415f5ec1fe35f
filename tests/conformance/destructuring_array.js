const [first, second] = [1, 2, 3];
const [, , third] = [1, 2, 3];
const [[inner]] = [[7]];
let x = 1, y = 2;
[x, y] = [y, x];
return { first, second, third, inner, x, y };
