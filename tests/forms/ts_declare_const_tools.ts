declare const tools: {
  orders: { lookup(input: { id: string }): Promise<{ id: string; status: string; total: number; customer: string }> };
  data: { records(input: { n: number }): Promise<{ records: Array<{ id: number; status: string }> }> };
};

const order = await tools.orders.lookup({ id: "dc-1" });
const { records } = await tools.data.records({ n: 3 });
return { order: order.status, statuses: records.map((r) => r.status) };
