const order = [];
Promise.resolve().then(() => order.push("a1")).then(() => order.push("a2"));
Promise.resolve().then(() => order.push("b1")).then(() => order.push("b2"));
new Promise(resolve => {
  order.push("executor");
  resolve();
}).then(() => order.push("c1"));
order.push("sync");
await Promise.resolve();
order.push("after await");
await Promise.resolve();
await Promise.resolve();
await Promise.resolve();
return order;
