interface Order { id: string; status: string; total: number; customer: string }
type Patch = Partial<Pick<Order, "status" | "total">>;
type Brief = Omit<Order, "customer">;

const order: Order = await tools.orders.lookup({ id: "ut-3" });
const patch: Patch = { status: "shipped" };
const updated: Order = { ...order, ...patch };
const { customer, ...brief }: { customer: string } & Brief = updated;
return { brief, customer, required: Object.keys(updated) as (keyof Required<Order>)[] };
