export type Money = { cents: number; currency: "USD" };
export function toMoney(amount: number): Money {
  return { cents: Math.round(amount * 100), currency: "USD" };
}

const o = await tools.orders.lookup({ id: "et-6" });
toMoney(o.total);
