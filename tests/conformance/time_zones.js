// A scheduling assistant formats meeting times for people in several zones, across the
// daylight-saving changes of 2024 (US: Mar 10 / Nov 3; EU: Mar 31 / Oct 27).
const meetings = [
  Date.UTC(2024, 0, 15, 14, 30),   // winter everywhere
  Date.UTC(2024, 2, 10, 6, 59),    // a minute before New York springs forward
  Date.UTC(2024, 2, 10, 7, 0),     // the minute it does
  Date.UTC(2024, 2, 20, 13, 0),    // New York on summer time, Berlin not yet
  Date.UTC(2024, 2, 31, 1, 0),     // Berlin springs forward
  Date.UTC(2024, 6, 4, 23, 45),    // summer; the date differs by zone
  Date.UTC(2024, 9, 27, 0, 59),    // Berlin falls back
  Date.UTC(2024, 10, 3, 5, 30),    // New York's repeated hour, second time
  Date.UTC(2024, 11, 31, 23, 30),  // new year in some zones only
];
const zones = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Asia/Tokyo", "Australia/Lord_Howe",
  "America/St_Johns", "Pacific/Chatham", "America/Los_Angeles", "europe/london", "US/Eastern", "Etc/GMT+5", "UTC"];
const rows = [];
for (const t of meetings) {
  const d = new Date(t);
  rows.push(zones.map((timeZone) => d.toLocaleString("en-US", { timeZone })).join(" | "));
}
const options = [
  { dateStyle: "full", timeStyle: "short" },
  { weekday: "short", hour: "numeric", minute: "2-digit" },
  { hour: "2-digit", minute: "2-digit", hour12: false },
  { timeZoneName: "shortOffset" },
  { timeZoneName: "longOffset", hour: "numeric" },
  { month: "long", day: "numeric", timeZoneName: "shortOffset" },
  { weekday: "long", hour: "numeric", minute: "2-digit" },
  { weekday: "short", timeZoneName: "shortOffset" },
  { month: "short", timeZoneName: "longOffset" },
  { minute: "2-digit", timeZoneName: "shortOffset" },
];
const styled = [];
for (const o of options) {
  for (const timeZone of ["America/New_York", "Asia/Kolkata", "America/St_Johns"]) {
    styled.push(new Intl.DateTimeFormat("en-US", { timeZone, ...o }).format(new Date(meetings[5])));
  }
}
const parts = new Intl.DateTimeFormat("en-US", {
  timeZone: "Europe/Berlin", weekday: "long", hour: "numeric", minute: "2-digit", timeZoneName: "longOffset",
}).formatToParts(new Date(meetings[4]));
const utcNames = ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"].map(
  (timeZoneName) => new Date(meetings[0]).toLocaleTimeString("en-US", { timeZone: "UTC", timeZoneName }),
);
const local = [
  new Date(meetings[5]).toLocaleDateString("en-US", { timeZone: "Asia/Tokyo" }),
  new Date(meetings[5]).toLocaleTimeString("en-US", { timeZone: "America/Los_Angeles" }),
  new Date(meetings[0]).toLocaleTimeString("en-US", { timeZone: "UTC", timeStyle: "full" }),
  new Date(Date.UTC(1800, 6, 1)).toLocaleString("en-US", { timeZone: "America/New_York", timeZoneName: "longOffset" }),
  new Date(Date.UTC(30000, 6, 1)).toLocaleString("en-US", { timeZone: "America/New_York" }),
];
const errors = [];
for (const o of [{ timeZone: "Mars/Olympus" }, { timeZone: "+05:30" }, { timeZone: "" },
  { timeZoneName: "bogus" }, { timeZoneName: "short", dateStyle: "short" }]) {
  try { new Date(0).toLocaleString("en-US", o); errors.push("no error"); } catch (e) { errors.push(e.name); }
}
return { rows, styled, parts, utcNames, local, errors };
