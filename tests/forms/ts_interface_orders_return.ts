interface Order {
  id: string;
  status: "open" | "complete";
  total: number;
  customer: string;
}

const ids: string[] = ["t1", "t2", "t3", "t4"];
const orders: Order[] = await Promise.all(ids.map((id) => tools.orders.lookup({ id }) as Promise<Order>));
const open: Order[] = orders.filter((o: Order) => o.status === "open");
return { open: open.map((o) => o.id), total: open.reduce((s: number, o: Order) => s + o.total, 0) };
