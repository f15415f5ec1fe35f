type Prefix = "ord" | "inv";
type DocId = `${Prefix}-${number}`;

const ids: DocId[] = ["ord-1", "inv-2", "ord-3"];
const looked = await Promise.all(ids.filter((id): id is `ord-${number}` => id.startsWith("ord")).map((id) => tools.orders.lookup({ id })));
looked.map((o: { id: string; total: number }) => `${o.id}:${o.total}`)
