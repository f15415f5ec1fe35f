outer: for (let i = 0; i < 3; i++) {
  inner: for (const j of [1, 2]) {
    if (j === 2) continue outer;
    if (i === 2) break outer;
    continue inner;
  }
}
block: {
  if (Math.random() > 0.5) break block;
  console.log("not skipped");
}
loop: while (true) {
  switch (1) {
    case 1:
      break loop;
  }
}
sw: switch (0) {
  default:
    break sw;
}
doLoop: do { break doLoop; } while (false);
a: b: for (;;) { break a; }
x: y: while (true) { continue x; }
