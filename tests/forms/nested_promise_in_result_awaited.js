return {
  order: tools.orders.lookup({ id: "ord-10" }),
  echo: tools.demo.echo({ ok: true }),
  label: "pending values",
};
