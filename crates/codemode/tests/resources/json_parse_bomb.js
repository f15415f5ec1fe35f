// JSON.parse of a large text is charged as it is built.
// expect: value "RangeError"
// timeout-ms: 10000
// memory-limit: 64MiB
const t = "[" + "[1,2,3,4,5,6,7,8],".repeat(1000000) + "1]"; try { return JSON.parse(t).length; } catch (e) { return e.name; }
