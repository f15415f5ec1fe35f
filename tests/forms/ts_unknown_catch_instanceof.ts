let message: string;
try {
  await tools.demo.fail({ message: "invoice service down" });
  message = "no error";
} catch (e: unknown) {
  message = e instanceof Error ? `${e.name}: ${e.message}` : "unknown";
}
return message;
