const s = "the quick brown fox jumps over the lazy dog";
return {
  indexOf: s.indexOf("the"),
  indexOfFrom: s.indexOf("the", 1),
  missing: s.indexOf("cat"),
  includes: s.includes("fox"),
  notIncludes: s.includes("Fox"),
  startsWith: s.startsWith("the quick"),
  startsWithAt: s.startsWith("quick", 4),
  endsWith: s.endsWith("dog"),
  endsWithNot: s.endsWith("cat"),
};
