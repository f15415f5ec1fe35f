const created = new Date("2024-03-01T12:00:00Z");
const due = new Date(created.getTime() + 14 * 24 * 60 * 60 * 1000);
const fmt = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
return { created: created.toISOString(), due: due.toISOString().slice(0, 10), pretty: fmt.format(due), weekday: due.getUTCDay() };
