async (): Promise<{ count: number; customers: string[] }> => {
  const orders: Array<{ customer: string }> = await Promise.all(["q1", "q2", "q3", "q6"].map((id: string) => tools.orders.lookup({ id })));
  const customers = [...new Set(orders.map((o) => o.customer))].sort();
  return { count: orders.length, customers };
}
