// A numeric string far past the BigInt size cap is refused before it is parsed.
// expect: value "RangeError"
// timeout-ms: 2000
// memory-limit: 64MiB
const s = "9".repeat(2000000); try { return String(BigInt(s)); } catch (e) { return e.name; }
