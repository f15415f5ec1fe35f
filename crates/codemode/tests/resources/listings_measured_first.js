// Listings that cannot fit fail before they are built: Object.values of 2M astral characters and toLocaleString of a 32M-element typed array each ran for seconds in one built-in call before running out of memory (issue 36's sweep: 3.6 s and 4.1 s under a 1 s timeout).
// expect: value ["RangeError", "RangeError", 3, "1,2"]
// memory-limit: 64MiB
// timeout-ms: 1000
const out = [];
try { Object.values("😀".repeat(1 << 21)); out.push("listed"); } catch (e) { out.push(e.name); }
try { new Uint8Array(1 << 25).toLocaleString(); out.push("formatted"); } catch (e) { out.push(e.name); }
out.push(Object.values("abc").length);
out.push(new Uint8Array([1, 2]).toLocaleString());
return out;
