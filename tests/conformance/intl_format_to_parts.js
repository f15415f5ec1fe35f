// Intl.NumberFormat / DateTimeFormat formatToParts: typed pieces that join to format(x).
const out = [];
const nf = (locale, options, xs) => {
  const f = new Intl.NumberFormat(locale, options);
  for (const x of xs) {
    const parts = f.formatToParts(x);
    out.push({ x: String(x), parts, joins: parts.map(p => p.value).join("") === f.format(x) });
  }
};
nf("en-US", {}, [-1234567.891, 0, -0, 42, 1e21, NaN, -Infinity, 0.5]);
nf("en-US", { style: "currency", currency: "USD" }, [-1234.5, 0.005, 1e6]);
nf("en-US", { style: "currency", currency: "EUR" }, [99.9]);
nf("en-US", { style: "currency", currency: "JPY" }, [1234]);
nf("de-DE", { style: "currency", currency: "EUR" }, [1234.5, -7]);
nf("de-DE", {}, [1234567.25]);
nf("en-US", { style: "percent" }, [0.256, -1.5]);
nf("en-US", { notation: "compact" }, [1234, 15300000, 999]);
nf("en-US", { notation: "compact", compactDisplay: "long" }, [1234567]);
nf("en-US", { notation: "scientific" }, [-0.00012, 123456]);
nf("en-US", { maximumFractionDigits: 0 }, [2.5, 1234.5]);
nf("en-US", { minimumFractionDigits: 2 }, [3]);
nf("en-US", { useGrouping: false }, [1234567]);

const dtf = (options, ds) => {
  const f = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", ...options });
  for (const d of ds) {
    const parts = f.formatToParts(d);
    out.push({ options, parts, joins: parts.map(p => p.value).join("") === f.format(d) });
  }
};
const d1 = new Date(Date.UTC(2024, 0, 5, 13, 7, 9));
const d2 = new Date(Date.UTC(1999, 11, 31, 0, 0, 0));
dtf({}, [d1, d2]);
dtf({ year: "numeric", month: "long", day: "numeric" }, [d1]);
dtf({ weekday: "long", year: "numeric", month: "short", day: "numeric" }, [d1, d2]);
dtf({ month: "2-digit", day: "2-digit", year: "2-digit" }, [d1]);
dtf({ hour: "numeric", minute: "2-digit" }, [d1, d2]);
dtf({ hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }, [d1]);
dtf({ dateStyle: "medium" }, [d1]);
dtf({ dateStyle: "full", timeStyle: "long" }, [d1]);
dtf({ month: "long", year: "numeric" }, [d2]);
dtf({ weekday: "short" }, [d1]);
const errs = [];
try { new Intl.DateTimeFormat("en-US").formatToParts(new Date(NaN)); } catch (e) { errs.push(e.name); }
out.push(errs);
return out;
