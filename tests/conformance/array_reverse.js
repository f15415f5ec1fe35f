const a = [1, 2, 3];
const r = a.reverse();
const words = "one two three".split(" ").reverse().join(" ");
return { a, same: r === a, words, empty: [].reverse() };
