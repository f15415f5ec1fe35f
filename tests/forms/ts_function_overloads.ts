function toList(value: string): string[];
function toList(value: string[]): string[];
function toList(value: string | string[]): string[] {
  return Array.isArray(value) ? value : value.split(",").map((s) => s.trim());
}

const ids = toList("ov1, ov2 ,ov3");
const orders = await Promise.all(toList(ids).map((id) => tools.orders.lookup({ id })));
return orders.map((o: { status: string }) => o.status);
