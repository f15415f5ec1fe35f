const d = new Date(0);
const m = new Map([[1, 2]]);
return [d + 1, d - 1, d == d.toString(), d < new Date(5), String(m), Object.prototype.toString.call(new Set()), `${m}`, +d, d * 2];
