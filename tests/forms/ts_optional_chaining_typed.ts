interface Meta { created?: string; n?: number; archived?: { at: string } }
interface Rec { id: number; meta?: Meta }

const { records } = (await tools.data.records({ n: 3 })) as { records: Rec[] };
return records.map((r) => ({ id: r.id, created: r.meta?.created?.slice(0, 10), archived: r.meta?.archived?.at ?? "never" }));
