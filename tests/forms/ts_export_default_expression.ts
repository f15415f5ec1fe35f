interface Stats { n: number; mean: number }
const { records } = await tools.data.records({ n: 10 });
const scores: number[] = records.map((r: { score: number }) => r.score);
const stats: Stats = { n: scores.length, mean: scores.reduce((a, b) => a + b, 0) / scores.length };
export default stats;
