// Case mapping that expands ("İ" lowercases to two characters, 2 bytes to 3) is measured before it is built: refused when it would not fit (issue 36: 456 MiB under a 256 MiB limit before).
// expect: value ["RangeError", 3, "i̇"]
// timeout-ms: 5000
// memory-limit: 32MiB
const s = "İ".repeat(1e7);
let name;
try { s.toLowerCase(); } catch (e) { name = e.name; }
return [name, "İ".toLowerCase().length + 1, "İ".toLowerCase()];
