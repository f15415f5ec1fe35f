return tools.orders
  .lookup({ id: "9" })
  .then((o) => tools.demo.echo({ customer: o.customer, total: o.total }))
  .then((e) => `${e.customer} owes ${e.total}`);
