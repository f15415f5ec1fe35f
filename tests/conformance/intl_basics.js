const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const pct = Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const plain = new Intl.NumberFormat();
const de = new Intl.NumberFormat("de-DE", { minimumFractionDigits: 2 });
const dtf = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
const dflt = new Intl.DateTimeFormat("en-US", { timeZone: "UTC" });
const coll = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
const files = ["file10.txt", "File2.txt", "file1.txt", "file2.txt", "éclair", "eclair"];
return {
  usd: [1234.5, -0.5, 1e6].map(usd.format),
  pct: pct.format(0.12345),
  plain: [plain.format(1234567.891), plain.format("42")],
  de: de.format(1234.5),
  dtf: dtf.format(new Date(Date.UTC(2024, 6, 4))),
  dflt: dflt.format(new Date(0)),
  sorted: [...files].sort(coll.compare),
  sortedLocale: [...files].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })),
  cmp: [coll.compare("a", "A"), coll.compare("a", "b"), "a".localeCompare("b", "en", { sensitivity: "accent" })],
  bad: (() => { try { new Intl.Collator("en", { sensitivity: "nope" }); return "no error"; } catch (e) { return e.name; } })(),
  noCurrency: (() => { try { new Intl.NumberFormat("en", { style: "currency" }); return "no error"; } catch (e) { return e.name; } })(),
  types: [typeof Intl, typeof Intl.NumberFormat, typeof usd.format],
};
