type Pending<T> = { [K in keyof T]: Promise<T[K]> };
const result: Pending<{ order: unknown; echo: unknown }> = {
  order: tools.orders.lookup({ id: "np-2" }),
  echo: tools.demo.echo(["x", 1]),
};
return result;
