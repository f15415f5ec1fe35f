const first = <T,>(xs: T[]): T | undefined => xs[0];
const groupBy = <T, K extends string>(xs: T[], key: (x: T) => K): Record<K, T[]> =>
  xs.reduce((acc, x) => {
    (acc[key(x)] ||= []).push(x);
    return acc;
  }, {} as Record<K, T[]>);

const { records } = await tools.data.records({ n: 7 });
const groups = groupBy(records as { owner: string; id: number }[], (r) => (r.id % 2 === 0 ? "even" : "odd"));
return { first: first(records)?.id, even: groups.even.length, odd: groups.odd.length };
