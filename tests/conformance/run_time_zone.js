// time-zone: America/New_York
// A run in the user's zone: local-time Date methods, the Date constructor and parser, setters
// across the DST changes, and Intl's default zone, all in America/New_York.
const d = new Date(Date.UTC(2024, 6, 4, 16, 0));
const fields = [d.getFullYear(), d.getMonth(), d.getDate(), d.getDay(), d.getHours(), d.getMinutes(),
  d.getUTCHours(), d.getTimezoneOffset(), new Date(Date.UTC(2024, 0, 4)).getTimezoneOffset()];
const built = [
  new Date(2024, 0, 15, 9, 30).toISOString(),
  new Date(2024, 2, 10, 2, 30).toISOString(),   // skipped by the spring change
  new Date(2024, 10, 3, 1, 30).toISOString(),   // happens twice in the autumn
  new Date(2024, 0, 1).getTime(),
  new Date("2024-07-04T12:00").toISOString(),   // local
  new Date("2024-07-04").toISOString(),         // date-only: UTC
  new Date("2024-07-04T12:00Z").toISOString(),
  new Date("Jul 4, 2024 12:00").toISOString(),
  Date.parse("Thu, 04 Jul 2024 16:00:00 GMT"),
];
const m = new Date(2024, 2, 9, 12, 0);
const stepped = [];
for (let i = 0; i < 3; i++) { m.setDate(m.getDate() + 1); stepped.push([m.getHours(), m.toISOString()]); }
const s = new Date(2024, 5, 1);
s.setHours(25, 61, 61, 1001);
s.setMonth(11);
const u = new Date(Date.UTC(2024, 5, 1));
u.setUTCHours(3);
const parts = [d.toDateString(), d.toLocaleString("en-US"), d.toLocaleDateString("en-US"),
  d.toLocaleTimeString("en-US"), new Intl.DateTimeFormat("en-US", { timeStyle: "short" }).format(d),
  d.toLocaleString("en-US", { timeZone: "UTC" }), d.toLocaleString("en-US", { timeZoneName: "shortOffset" }),
  d.toTimeString().slice(0, 17), String(d).slice(0, 33)];
return { fields, built, stepped, set: [s.toISOString(), u.toISOString()], parts };
