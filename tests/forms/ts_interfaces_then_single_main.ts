interface Order { id: string; status: string; total: number }
type Summary = { ids: string[]; sum: number };

async function main(): Promise<Summary> {
  const orders: Order[] = await Promise.all(["im1", "im2", "im3"].map((id) => tools.orders.lookup({ id })));
  return { ids: orders.map((o) => o.id), sum: orders.reduce((s, o) => s + o.total, 0) };
}
