let ü = 1;
let 😀 = 2;
