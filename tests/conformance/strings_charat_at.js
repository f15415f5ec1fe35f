const s = "codemode";
return {
  charAt: s.charAt(4),
  charAtOut: s.charAt(100),
  at: s.at(0),
  atNeg: s.at(-1),
  atOut: s.at(50) === undefined,
  index: s[2],
  indexOut: s[20] === undefined,
};
