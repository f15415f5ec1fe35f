// Shifting left by a huge count is refused before anything is allocated.
// expect: value "RangeError"
// timeout-ms: 1000
// memory-limit: 64MiB
try { return String(1n << 4294967296n); } catch (e) { return e.name; }
