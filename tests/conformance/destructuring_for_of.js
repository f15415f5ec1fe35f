const pairs = [["a", 1], ["b", 2]];
const out = [];
for (const [k, v] of pairs) out.push(k + v);
for (const { id, label = "none" } of [{ id: 1 }, { id: 2, label: "two" }]) out.push(`${id}-${label}`);
for (const [k, v] of Object.entries({ x: 9 })) out.push(`${k}=${v}`);
return out;
