const r = await tools.data.records({ n: 20 });
const byStatus = r.records.reduce((acc, x) => { (acc[x.status] ??= []).push(x.id); return acc; }, {});
const echoed = await tools.demo.echo({ nested: { arr: [1, "two", null, true] } });
let err;
try { await tools.demo.fail({ message: "bad thing" }); } catch (e) { err = [e.name, e.message, e instanceof Error]; }
const settled = await Promise.allSettled([tools.demo.fail({ message: "x" }), tools.orders.lookup({ id: "z9" })]);
console.log("done", byStatus.open.length, { k: 1 });
console.warn("careful");
return { byStatus, echoed, err, settled: settled.map(s => s.status), n: settled[1].value.status };
