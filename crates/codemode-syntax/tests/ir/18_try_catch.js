let log = [];
try {
  log.push(await tools.risky({}));
} catch (error) {
  log.push(error.message);
} finally {
  log.push("done");
}
try {
  JSON.parse("{");
} catch {
  log.push("bad json");
}
try {
  let inner = 1;
  throw inner;
} finally {
  log.length;
}
try {
  try { throw new Error("nested"); } catch (e) { throw e; }
} catch (e) {
  const e2 = e;
  log.push(() => e2 + e);
}
log;
