function f(x) {
  try {
    if (x) return "early";
    throw new Error("boom");
  } catch (e) {
    return e.message;
  } finally {
    console.log("cleanup");
  }
}
for (const x of [true, false]) {
  try { break; } finally { f(x); }
}
return f(false);
