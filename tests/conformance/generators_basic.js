function* count(n) {
  for (let i = 0; i < n; i++) {
    const sent = yield i;
    if (sent !== undefined) console.log("sent", sent);
  }
  return "done";
}
const g = count(3);
const steps = [g.next(), g.next("a"), g.next(), g.next("b"), g.next(), g.next()];
function* noArgs() {
  yield;
  yield undefined;
}
const lazy = [];
function* logged() {
  lazy.push("started");
  yield 1;
  lazy.push("resumed");
}
const l = logged();
lazy.push("created");
l.next();
l.next();
const gens = {
  *method(x) {
    yield x + this.base;
  },
  base: 10,
};
function* args() {
  yield arguments.length;
  yield [...arguments].join("+");
}
function* withRest(first, ...rest) {
  yield first;
  yield rest;
}
const expr = function* named() {
  yield typeof named;
};
class Tree {
  constructor(items) {
    this.items = items;
  }
  *walk() {
    for (const item of this.items) yield item * 2;
  }
}
let notConstructor;
try {
  new count(1);
} catch (e) {
  notConstructor = e instanceof TypeError;
}
return {
  steps,
  noArgs: [...noArgs()],
  lazy,
  method: gens.method(5).next().value,
  args: [...args(1, 2, 3)],
  rest: [...withRest(1, 2, 3)],
  named: expr().next().value,
  tree: [...new Tree([1, 2, 3]).walk()],
  notConstructor,
  toStringTag: typeof g.next,
  fib: (() => {
    function* fib() {
      let [a, b] = [0, 1];
      while (true) {
        yield a;
        [a, b] = [b, a + b];
      }
    }
    const out = [];
    for (const x of fib()) {
      if (x > 100) break;
      out.push(x);
    }
    return out;
  })(),
};
