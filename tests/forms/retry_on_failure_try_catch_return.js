async function withRetry(fn, attempts) {
  let lastError;
  for (let i = 1; i <= attempts; i++) {
    try {
      return await fn(i);
    } catch (err) {
      lastError = err;
      console.log(`attempt ${i} failed: ${err.message}`);
    }
  }
  throw lastError;
}

const result = await withRetry(async (attempt) => {
  if (attempt < 3) await tools.demo.fail({ message: "service unavailable" });
  return tools.orders.lookup({ id: "ord-33" });
}, 5);
return { result };
