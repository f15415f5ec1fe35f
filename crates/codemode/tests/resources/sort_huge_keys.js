// The default sort compares strings in place: 4,000 references to one 1 MB string are not each copied into a key (issue 36: 7.3 GB and no end before).
// expect: value [4000, 1000000, "1,10,2"]
// timeout-ms: 5000
const a = new Array(4000).fill("x".repeat(1e6));
a.sort();
return [a.length, a[0].length, [2, 10, 1].sort().join()];
