const d = new Date(Date.UTC(2024, 0, 31, 12, 30));
const e = new Date("2024-02-29T10:00:00Z");
return [d.toISOString(), d.getUTCDay(), e.getTime() - d.getTime(), JSON.stringify({ d }), new Date(0).getUTCFullYear(), isNaN(new Date("garbage").getTime()), Date.parse("2024-01-01T00:00:00.000Z")];
