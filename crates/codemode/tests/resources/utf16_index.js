// Indexing and .length of a long non-ASCII string are O(1).
// expect: value 46600000
// timeout-ms: 5000
const s = "é".repeat(200000); let t = 0; for (let i = 0; i < s.length; i++) t += s.charCodeAt(i); return t;
