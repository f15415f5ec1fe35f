export default async function main() {
  enum Status {
    Open = "open",
    Closed = "closed",
    Pending = "pending",
  }

  const { records } = await tools.data.records({ n: 21 });
  const counts: Record<Status, number> = { [Status.Open]: 0, [Status.Closed]: 0, [Status.Pending]: 0 };
  for (const r of records as Array<{ status: Status }>) counts[r.status]++;
  return { counts, allOpen: counts[Status.Open] === records.length };
}
