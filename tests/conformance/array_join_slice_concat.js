const a = [1, 2, 3, 4, 5];
return {
  join: a.join("-"),
  joinDefault: a.join(),
  joinEmpty: [].join(","),
  joinNulls: [1, null, undefined, 2].join(","),
  slice: a.slice(1, 3),
  sliceNeg: a.slice(-2),
  sliceCopy: a.slice(),
  concat: a.concat([6, 7], 8, [[9]]),
  original: a,
};
