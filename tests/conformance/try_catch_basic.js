const log = [];
try {
  log.push("try");
  throw new Error("boom");
  log.push("unreachable");
} catch (e) {
  log.push(`caught ${e.message}`);
} finally {
  log.push("finally");
}
try {
  log.push("no error");
} catch {
  log.push("never");
}
let value;
try {
  throw { code: 7 };
} catch ({ code }) {
  value = code;
}
return { log, value };
