export default async (): Promise<string> => {
  const o = await tools.orders.lookup({ id: "ea-3" });
  return `${o.id}: ${o.status}`;
};
