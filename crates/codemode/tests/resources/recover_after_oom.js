// After an out-of-memory RangeError is caught, the program goes on once it lets go of what filled the heap (the array's last capacity depends on where a run was saved and restored, so the handler itself may have little room): growth is charged before it happens (an array that doubled and then was refused left the heap over its limit) and the collector runs before the handler.
// expect: value [1, 7]
// timeout-ms: 10000
// memory-limit: 32MiB
let a = []; let caught = 0; try { for (let i = 0; ; i++) a.push(i); } catch (e) { caught = 1; } a = null; console.log("after", caught); const o = {}; try { for (let i = 0; ; i++) o["k" + i] = i; } catch (e) { caught++; } return [caught - 1, 7];
