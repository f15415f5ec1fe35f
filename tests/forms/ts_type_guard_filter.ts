interface Order { id: string; status: string; total: number }
interface OpenOrder extends Order { status: "open" }
const isOpen = (o: Order): o is OpenOrder => o.status === "open";

const orders: Order[] = await Promise.all(["g1", "g2", "g3", "g4"].map((id) => tools.orders.lookup({ id })));
const open: OpenOrder[] = orders.filter(isOpen);
return open.map((o) => o.id);
