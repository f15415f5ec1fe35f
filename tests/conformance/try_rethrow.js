const trail = [];
function inner() {
  throw new RangeError("deep");
}
function middle() {
  try {
    inner();
  } catch (e) {
    trail.push("middle saw " + e.name);
    throw e;
  } finally {
    trail.push("middle finally");
  }
}
try {
  middle();
} catch (e) {
  trail.push(`outer got ${e.name}: ${e.message}`);
  trail.push(e instanceof RangeError);
}
try {
  try {
    throw new Error("first");
  } catch (e) {
    throw new TypeError("second from " + e.message);
  }
} catch (e) {
  trail.push(e.name + " " + e.message);
}
return trail;
