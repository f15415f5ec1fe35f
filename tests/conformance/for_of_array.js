const items = ["apple", "banana", "cherry"];
const lengths = [];
for (const item of items) lengths.push(item.length);
let total = 0;
for (let n of [1, 2, 3]) {
  n *= 10;
  total += n;
}
const chars = [];
for (const ch of "hi!") chars.push(ch);
return { lengths, total, chars, items };
