const raw = JSON.stringify(await tools.demo.echo({ a: 1, b: [true, null, "x"] }));
const parsed = JSON.parse(raw);
return { raw, keys: Object.keys(parsed), pretty: JSON.stringify(parsed, null, 2).split("\n").length };
