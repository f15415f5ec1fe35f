let failure;
try {
  await tools.demo.fail({ message: "rate limited" });
} catch (e) {
  failure = e;
}
return { ok: false, failure };
