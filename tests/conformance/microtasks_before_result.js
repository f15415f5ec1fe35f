const log = [];
Promise.resolve().then(() => {
  log.push("first");
  Promise.resolve().then(() => log.push("queued by first"));
});
Promise.resolve(1).then((v) => log.push("second " + v));
(async () => {
  log.push("async start");
  await null;
  log.push("async after await");
})();
log.push("sync");
return log;
