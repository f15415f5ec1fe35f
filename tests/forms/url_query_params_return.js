const base = new URL("https://api.example.com/v2/orders");
const orders = await Promise.all(["5", "6"].map((id) => tools.orders.lookup({ id })));
const links = orders.map((o) => {
  const url = new URL(base);
  url.searchParams.set("id", o.id);
  url.searchParams.set("status", o.status);
  url.searchParams.append("fields", "total,customer");
  return url.toString();
});
return { links, host: base.host, path: base.pathname };
