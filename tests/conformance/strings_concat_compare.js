let s = "";
for (let i = 0; i < 5; i++) s += i;
const parts = ["b", "a", "C"];
return {
  s,
  length: s.length,
  compare: ["a" < "b", "B" < "a", "abc" < "abd", "ab" < "abc", "" < "a"],
  numberToString: (255).toString(),
  sorted: parts.sort(),
  unicode: "héllo wörld".toUpperCase(),
};
