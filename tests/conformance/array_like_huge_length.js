// Array-likes with huge lengths (up to 2^53 - 1, indices past 2^32) in the iteration methods: an early answer ends the loop; map's new Array(len) past 2^32 - 1 is a RangeError.
const out = [];
out.push(Array.prototype.some.call({ 0: 11, length: "Infinity" }, (v) => v > 10));
out.push(Array.prototype.findLastIndex.call({ length: Number.MAX_SAFE_INTEGER }, (v, i) => true));
out.push(Array.prototype.findLast.call({ length: 2 ** 32 + 2, [2 ** 32 + 1]: "big" }, (v) => v !== undefined));
try { Array.prototype.map.call({ 0: 9, length: "Infinity" }, (v) => v); } catch (e) { out.push(e.constructor.name); }
return out;
