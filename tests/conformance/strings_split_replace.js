const csv = "a,b,,c";
return {
  split: csv.split(","),
  splitLimit: csv.split(",", 2),
  chars: "abc".split(""),
  noSep: "abc".split("x"),
  replace: "one two one".replace("one", "1"),
  replaceMissing: "abc".replace("z", "y"),
  words: "a b  c".split(" ").length,
};
