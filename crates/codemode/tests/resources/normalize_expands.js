// Normalization that expands ("é" decomposes to two characters) is measured before it is built: refused when it would not fit (issue 36: 508 MiB under a 256 MiB limit before).
// expect: value ["RangeError", 2]
// timeout-ms: 5000
// memory-limit: 32MiB
const s = "é".repeat(6e6);
let name;
try { s.normalize("NFD"); } catch (e) { name = e.name; }
return [name, "é".normalize("NFD").length];
