const log = `2024-01-15 10:23:45 ERROR [auth] Login failed for user=alice ip=10.0.0.1
2024-01-15 10:24:01 INFO [api] GET /users/42 200 12ms
2024-01-15 10:24:05 WARN [api] GET /orders?id=7 404 3ms
2024-01-15 10:25:00 ERROR [db] Timeout after 3000ms query="SELECT * FROM t"`;
const lines = log.split("\n");
const parsed = lines.map(l => {
  const m = l.match(/^(\S+) (\S+) (\w+) \[(\w+)\] (.*)$/);
  return m ? { date: m[1], time: m[2], level: m[3], svc: m[4], msg: m[5] } : null;
});
const errors = parsed.filter(p => p.level === "ERROR").map(p => p.svc);
const kv = Object.fromEntries([...log.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map(m => [m[1], m[2].replace(/^"|"$/g, "")]));
const durations = [...log.matchAll(/(\d+)ms/g)].map(m => Number(m[1]));
const csv = 'name,qty,price\n"Widget, large",3,9.99\nGadget,10,0.5';
const rows = csv.split("\n").slice(1).map(r => r.match(/("([^"]*)"|[^,]+)/g).map(c => c.replace(/^"|"$/g, "")));
const slug = "  Hello, World! Ça va?  ".trim().toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
const title = "the quick brown fox".replace(/\b\w/g, c => c.toUpperCase());
const camel = "background-color-value".replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const money = (1234567.891).toLocaleString("en-US", { style: "currency", currency: "USD" });
const pct = (0.1234).toLocaleString("en-US", { style: "percent", minimumFractionDigits: 1 });
const date = new Date("2024-01-15T10:23:45Z");
const nextWeek = new Date(date.getTime() + 7 * 864e5).toISOString().slice(0, 10);
const byLevel = parsed.reduce((m, p) => m.set(p.level, (m.get(p.level) || 0) + 1), new Map());
const uniqueSvcs = [...new Set(parsed.map(p => p.svc))].sort((a, b) => a.localeCompare(b));
const emails = "Contact: bob@example.com, ALICE@Example.org; invalid@; x@y.io".match(/[\w.+-]+@[\w-]+\.[\w.]+/g);
const padded = durations.map(d => String(d).padStart(5, " ") + "|");
const wrapped = "lorem ipsum dolor sit amet consectetur adipiscing elit".replace(/(.{1,20})(\s|$)/g, "$1\n").trim().split("\n");
return { parsed: parsed.length, errors, kv, durations, rows, slug, title, camel, money, pct, nextWeek, byLevel: [...byLevel], uniqueSvcs, emails, padded, wrapped, fixed: (durations.reduce((a, b) => a + b) / durations.length).toFixed(2) };
