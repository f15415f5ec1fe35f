const out = [];
const p = new Promise(r => { out.push("exec"); r(1); });
p.then(v => out.push("then" + v));
async function a() { out.push("a1"); await p; out.push("a2"); return "ra"; }
const pa = a();
out.push("sync");
const v = await pa;
out.push(v);
const r = await Promise.race([new Promise(r => r("x")), "y"]);
const s = await Promise.allSettled([Promise.reject(new Error("no")), 1]);
return { out, r, s: s.map(x => x.status) };
