// for-in over 100,000 keys is linear (de-duplication was quadratic).
// expect: value 100000
// timeout-ms: 5000
const o = {}; for (let i = 0; i < 100000; i++) o["k" + i] = i; let n = 0; for (const k in o) n++; return n;
