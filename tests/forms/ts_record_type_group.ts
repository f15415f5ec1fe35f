type Rec = { id: number; status: "open" | "closed" | "pending"; owner: string };
const { records }: { records: Rec[] } = await tools.data.records({ n: 14 });
const groups: Record<Rec["status"], number[]> = { open: [], closed: [], pending: [] };
records.forEach((r) => groups[r.status].push(r.id));
groups
