const s = "Hello, world";
return {
  slice: s.slice(7),
  sliceRange: s.slice(0, 5),
  sliceNeg: s.slice(-5),
  sliceNegRange: s.slice(-5, -1),
  substring: s.substring(7, 12),
  substringSwapped: s.substring(5, 0),
  length: s.length,
};
