const values = [0, 1, -1, "", "0", " ", null, undefined, NaN, [], {}, true, false];
const truthy = values.map(v => (v ? "T" : "F")).join("");
return { truthy, not: !0, notNot: !!"x", bools: [true && false, true || false, !true] };
