async function main() {
  function summarize(values: number[], label?: string, digits: number = 1): string {
    const avg = values.reduce((a, b) => a + b, 0) / values.length;
    return `${label ?? "avg"}=${avg.toFixed(digits)}`;
  }

  const { records } = await tools.data.records({ n: 11 });
  const scores = records.map((r: { score: number }) => r.score);
  return [summarize(scores), summarize(scores, "mean", 3)];
}

main();
