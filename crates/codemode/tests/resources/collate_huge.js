// Collating two long texts (localeCompare, Intl.Collator) measures its working memory before it is built; equal texts compare without it (issue 36: 1.0 GB and 4.6 s in one instruction before).
// expect: value ["RangeError", "RangeError", 0, -1]
// timeout-ms: 5000
// memory-limit: 64MiB
const a = "a".repeat(8e6) + "b", b = "a".repeat(8e6) + "c";
const names = [];
try { a.localeCompare(b); } catch (e) { names.push(e.name); }
try { new Intl.Collator().compare(a, b); } catch (e) { names.push(e.name); }
return [...names, a.localeCompare(a), "a".localeCompare("b")];
