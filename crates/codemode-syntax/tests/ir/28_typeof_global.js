const local = 1;
typeof undeclaredGlobal;
typeof local;
typeof (maybe);
typeof tools.orders;
function f() { return typeof local + typeof f; }
typeof undefined;
