let a = 1, b;
const c = a + 1;
var d = c, e;
var d = 3;
let [first] = [a];
a = b = c;
