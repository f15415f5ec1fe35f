const out = [];
outer: for (let i = 0; i < 3; i++) {
  inner: for (let j = 0; j < 3; j++) {
    if (j === 1) continue outer;
    if (i === 2) break outer;
    out.push(`${i}${j}`);
  }
}
blk: { out.push("in"); if (out.length) break blk; out.push("never"); }
let k = 0;
do { k++; } while (k < 5);
switch (3) { case 1: out.push(1); case 3: out.push(3); case 4: out.push(4); break; default: out.push("d"); }
return [out, k];
