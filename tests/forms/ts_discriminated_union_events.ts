type Event =
  | { type: "created"; id: number }
  | { type: "scored"; id: number; score: number }
  | { type: "tagged"; id: number; tags: string[] };

const { records } = await tools.data.records({ n: 4 });
const events: Event[] = records.flatMap((r: any): Event[] => [
  { type: "created", id: r.id },
  { type: "scored", id: r.id, score: r.score },
  ...(r.tags.length > 1 ? [{ type: "tagged" as const, id: r.id, tags: r.tags }] : []),
]);

function describe(e: Event): string {
  switch (e.type) {
    case "created": return `#${e.id} created`;
    case "scored": return `#${e.id} scored ${e.score}`;
    case "tagged": return `#${e.id} tagged ${e.tags.join("+")}`;
  }
}
return events.map(describe);
