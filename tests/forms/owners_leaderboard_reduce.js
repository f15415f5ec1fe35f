const { records } = await tools.data.records({ n: 120 });
const totals = records.reduce((acc, r) => {
  acc[r.owner] = (acc[r.owner] ?? 0) + r.score;
  return acc;
}, {});
const leaderboard = Object.entries(totals)
  .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
  .slice(0, 3)
  .map(([owner, score], i) => `${i + 1}. ${owner} (${score})`);
return leaderboard;
