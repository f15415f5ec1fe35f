// A power whose result is far past the BigInt size cap is refused before it is computed.
// expect: value "RangeError"
// timeout-ms: 1000
// memory-limit: 64MiB
try { return String(2n ** 100000000n); } catch (e) { return e.name; }
