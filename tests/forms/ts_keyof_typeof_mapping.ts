const labels = { open: "Open", complete: "Done" } as const;
type Key = keyof typeof labels;

const orders = await Promise.all(["k1", "k2", "k3"].map((id) => tools.orders.lookup({ id })));
orders.map((o: { id: string; status: Key }) => `${o.id}: ${labels[o.status]}`)
