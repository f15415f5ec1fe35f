const obj = {
  name: "obj",
  regular() { return this.name; },
  arrow: () => typeof this,
  nested() { return [1, 2].map(x => this.name + x); },
  later() { const self = this; return function () { return self.name; }; },
};
const detached = obj.regular;
let thrown;
try { detached(); } catch (e) { thrown = e.name; }
function Counter() { this.count = 0; }
const c = new Counter();
c.count += 2;
return [obj.regular(), obj.arrow(), obj.nested(), obj.later()(), thrown, c.count, c instanceof Counter];
