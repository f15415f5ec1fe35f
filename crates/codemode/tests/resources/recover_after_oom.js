// After an out-of-memory RangeError is caught, the program goes on: growth is charged before it happens (an array that doubled and then was refused left the heap over its limit) and the collector runs before the handler.
// expect: value [1, 7]
// timeout-ms: 10000
// memory-limit: 32MiB
let a = []; let caught = 0; try { for (let i = 0; ; i++) a.push(i); } catch (e) { caught = 1; } console.log("after", caught); a = null; const o = {}; try { for (let i = 0; ; i++) o["k" + i] = i; } catch (e) { caught++; } return [caught - 1, 7];
