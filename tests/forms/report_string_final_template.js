const orders = await Promise.all(["7", "8", "9"].map((id) => tools.orders.lookup({ id })));
const lines = orders.map((o) => `- ${o.id}: ${o.status} ($${o.total.toFixed(2)})`);
const total = orders.reduce((s, o) => s + o.total, 0);
`Orders report\n${lines.join("\n")}\nTotal: $${total.toFixed(2)}`;
