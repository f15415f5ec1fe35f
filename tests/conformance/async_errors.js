async function fails() {
  throw new TypeError("async failure");
}
let caught;
try {
  await fails();
} catch (e) {
  caught = `${e.name}: ${e.message}`;
}
const viaCatch = await fails().catch(e => "handled " + e.message);
const rejected = await Promise.reject(new Error("rej")).then(
  () => "no",
  e => "onRejected " + e.message,
);
return { caught, viaCatch, rejected };
