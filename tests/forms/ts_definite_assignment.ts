let total!: number;
let label: string;

const orders = await Promise.all(["da1", "da2"].map((id) => tools.orders.lookup({ id })));
total = orders.reduce((s: number, o: { total: number }) => s + o.total, 0);
label = total > 50 ? "large" : "small";
({ total, label })
