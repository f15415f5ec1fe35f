interface Row { id: number; title: string; status: string; score: number; owner: string }

// Fetch the sheet, keep the rows that matter, save them, and only log a summary.
const sheet = (await tools.data.records({ n: 45 })) as { records: Row[] };
const qualified: Row[] = sheet.records.filter((row) => row.status === "open" && row.score > 60);
const saved = await tools.demo.echo({ target: "crm", leads: qualified.map(({ id, owner }) => ({ id, owner })) });
console.log(`Saved ${saved.leads.length} leads to ${saved.target}`);
return { saved: saved.leads.length };
