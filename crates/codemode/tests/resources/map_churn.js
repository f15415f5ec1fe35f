// A Map and a Set that churn (add, delete) 200,000 times hold only their live entries: the collector compacts deleted ones.
// expect: value [0, 0]
// timeout-ms: 20000
// memory-limit: 8MiB
const m = new Map(); const s = new Set(); for (let i = 0; i < 200000; i++) { m.set(i, i); m.delete(i); s.add(i); s.delete(i); } return [m.size, s.size];
