const STATUSES = ["open", "closed", "pending"] as const;
type Status = (typeof STATUSES)[number];

const { records } = await tools.data.records({ n: 9 });
const byStatus = Object.fromEntries(STATUSES.map((s: Status) => [s, records.filter((r: { status: string }) => r.status === s).length]));
return byStatus;
