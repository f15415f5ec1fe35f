export const formatTotal = (n) => `$${n.toFixed(2)}`;
export function sum(xs) {
  return xs.reduce((a, b) => a + b, 0);
}

const orders = await Promise.all(["14", "15"].map((id) => tools.orders.lookup({ id })));
return formatTotal(sum(orders.map((o) => o.total)));
