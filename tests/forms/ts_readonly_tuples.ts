type Pair = readonly [id: string, weight: number];
const pairs: readonly Pair[] = [["w1", 2], ["w2", 1], ["w3", 3]];
const orders = await Promise.all(pairs.map(([id]) => tools.orders.lookup({ id })));
const weighted = orders.reduce((s: number, o: { total: number }, i: number) => s + o.total * pairs[i][1], 0);
return { weighted };
