// Deleting 30,000 keys one by one is O(1) each (the index was rebuilt on every delete).
// expect: value [0, 1]
// timeout-ms: 5000
const o = {}; for (let i = 0; i < 30000; i++) o["k" + i] = i; for (let i = 0; i < 29999; i++) delete o["k" + i]; return [Object.keys(o).length - 1, o.k29999 === 29999 ? 1 : 0];
