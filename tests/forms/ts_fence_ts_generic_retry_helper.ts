```ts
async function retry<T>(fn: (attempt: number) => Promise<T>, times = 3): Promise<T> {
  let last: unknown;
  for (let attempt = 1; attempt <= times; attempt++) {
    try {
      return await fn(attempt);
    } catch (err: unknown) {
      last = err;
      console.warn(`attempt ${attempt}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw last;
}

const value = await retry<string>(async (n) => {
  if (n === 1) await tools.demo.fail({ message: "flaky" });
  return tools.demo.echo(`ok after ${n}`);
});
return value;
```
