let out = [];
outer: for (const i of [1, 2, 3]) {
  switch (i) {
    case 1: out.push("one"); break;
    case 2: continue outer;
    default: break outer;
  }
}
return `${out.join(",")}!`;
