const eur: Intl.NumberFormat = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" });
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
return Promise.all(["mo1", "mo2"].map((id) => tools.orders.lookup({ id }))).then((orders: { id: string; total: number }[]) => orders.map(({ id, total }) => ({ id, eur: eur.format(total), usd: usd.format(total * 1000) })));
