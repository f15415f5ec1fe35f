const epoch = new Date(0);
const d = new Date(Date.UTC(2024, 1, 29, 13, 45, 30, 123));
const parsed = new Date("2024-03-10T08:05:09.007Z");
const offset = new Date("2024-03-10T08:05:09+02:00");
const fields = new Date(2020, 11, 31, 23, 59, 59);
const copy = new Date(d);
copy.setUTCDate(copy.getUTCDate() + 1);
const rolled = new Date(Date.UTC(2024, 0, 31));
rolled.setUTCMonth(1);
return {
  epoch: [epoch.getTime(), epoch.toISOString(), epoch.getUTCDay(), epoch.getUTCFullYear()],
  d: [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()],
  iso: d.toISOString(),
  json: JSON.stringify({ when: d }),
  toJSON: d.toJSON(),
  parsed: [parsed.getTime(), parsed.toISOString()],
  offset: offset.toISOString(),
  dateOnly: Date.parse("2024-03-10"),
  utc: [Date.UTC(1970, 0, 1), Date.UTC(2000, 0), Date.UTC(2024, 12, 1), Date.UTC(99, 0, 1)],
  invalid: [isNaN(new Date("not a date").getTime()), isNaN(Date.parse("2024-13-45")), new Date(NaN).toJSON()],
  invalidIso: (() => { try { new Date(NaN).toISOString(); return "no error"; } catch (e) { return e.name; } })(),
  copy: copy.toISOString(),
  rolled: rolled.toISOString(),
  valueOf: d.valueOf() === d.getTime(),
  diffDays: (Date.UTC(2024, 2, 1) - Date.UTC(2024, 1, 1)) / 86400000,
  negative: new Date(-86400000).toISOString(),
  far: new Date(8.64e15).toISOString(),
  beyond: isNaN(new Date(8.64e15 + 1).getTime()),
  arithmetic: new Date(1000) - new Date(250),
  compare: new Date(5) < new Date(6),
};
