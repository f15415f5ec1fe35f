interface Rec { id: number; status: string }

export default async function run(): Promise<number[]> {
  const { records } = (await tools.data.records({ n: 10 })) as { records: Rec[] };
  return records.filter((r) => r.status !== "closed").map((r) => r.id);
}
