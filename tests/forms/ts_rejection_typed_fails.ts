async function mustFind(id: string): Promise<never> {
  await tools.orders.lookup({ id });
  return tools.demo.fail({ message: `order ${id} was deleted` }) as Promise<never>;
}

return mustFind("rt-1");
