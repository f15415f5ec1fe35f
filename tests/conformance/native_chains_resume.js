// Loops of built-ins calling built-ins give the same results however often they yield
// between slices (typed toLocaleString, map with a built-in callback, sort with a built-in
// comparator, Array.from with a built-in mapper, reduce with Math.max).
const n = 30000;
const bytes = new Uint8Array(n).map((_, i) => i % 251);
const text = bytes.toLocaleString();
const strings = Array.from(bytes, String);
const numbers = strings.map(Number);
const max = numbers.reduce((a, b) => Math.max(a, b), 0);
const sorted = [...strings].sort(Intl.Collator ? new Intl.Collator("en").compare : undefined);
return [text.length, strings.length, numbers.slice(0, 5), max, sorted.slice(0, 3), numbers.map(Math.sqrt).filter(Number.isInteger).length];
