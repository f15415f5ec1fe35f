type Query = Record<string, string | number | boolean>;

function buildUrl(base: string, path: string, query: Query): string {
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  return url.href;
}

const order = await tools.orders.lookup({ id: "ub-9" });
buildUrl("https://shop.example.com/api/", "orders/search", { customer: order.customer, open: order.status === "open", limit: 25 })
