function overrides() {
  try {
    return "try";
  } finally {
    return "finally";
  }
}
function swallows() {
  try {
    throw new Error("lost");
  } finally {
    return "finally wins";
  }
}
const order = [];
function runsFinally() {
  try {
    order.push("body");
    return "value";
  } finally {
    order.push("cleanup");
  }
}
function inLoop() {
  let n = 0;
  for (let i = 0; i < 5; i++) {
    try {
      if (i === 2) break;
      continue;
    } finally {
      n++;
    }
  }
  return n;
}
return { overrides: overrides(), swallows: swallows(), runs: runsFinally(), order, inLoop: inLoop() };
