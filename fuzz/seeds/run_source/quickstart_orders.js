const ids = ["a1", "b2", "c3"];
const orders = await Promise.all(ids.map(id => tools.orders.lookup({ id })));
const open = orders.filter(o => o.status !== "complete");
console.log(`open: ${open.length}`);
return { open: open.map(o => o.id), total: orders.reduce((s, o) => s + o.total, 0) };
