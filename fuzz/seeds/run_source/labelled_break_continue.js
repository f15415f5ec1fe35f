const found = [];
outer: for (let i = 0; i < 5; i++) {
  for (let j = 0; j < 5; j++) {
    if (j === 3) continue outer;
    if (i === 3) break outer;
    found.push(`${i}${j}`);
  }
}
let count = 0;
loop: while (true) {
  count++;
  do {
    if (count > 3) break loop;
    continue loop;
  } while (true);
}
block: {
  found.push("in block");
  if (count) break block;
  found.push("never");
}
return { found, count };
