type Pair = readonly [id: string, weight: number];
const pairs: readonly Pair[] = [["w1", 2], ["w2", 1], ["w3", 3]];
Promise.all(pairs.map(([id]) => tools.orders.lookup({ id }))).then((orders: { total: number }[]) => ({
  weighted: orders.reduce((s, o, i) => s + o.total * pairs[i][1], 0),
}));
