let message;
let isError;
try {
  await tools.demo.fail({ message: "tool exploded" });
  message = "not reached";
} catch (e) {
  message = e.message;
  isError = e instanceof Error;
}
const viaCatch = await tools.demo.fail({ message: "second" }).then(
  () => "resolved",
  e => "rejected: " + e.message,
);
return { message, isError, viaCatch };
