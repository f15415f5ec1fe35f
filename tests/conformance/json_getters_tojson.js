// Getters and toJSON methods run during JSON.stringify and when the result crosses the boundary.
const money = (cents) => ({ cents, toJSON() { return `$${(this.cents / 100).toFixed(2)}`; } });
const order = {
  id: "o1",
  items: [money(1999), money(250)],
  get count() { return this.items.length; },
  get total() { return money(this.items.reduce((s, m) => s + m.cents, 0)); },
};
return { text: JSON.stringify(order), order, pretty: JSON.stringify({ a: [1, { b: 2 }] }, null, 2) };
