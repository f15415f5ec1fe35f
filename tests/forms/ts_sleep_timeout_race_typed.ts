const withTimeout = <T,>(p: Promise<T>, ms: number): Promise<T | "timed out"> =>
  Promise.race([p, tools.demo.sleep({ ms, value: "timed out" }) as Promise<"timed out">]);

const fast = await withTimeout(tools.orders.lookup({ id: "st-1" }), 200);
const slow = await withTimeout(tools.demo.sleep({ ms: 300, value: "late" }), 5);
return { fast: typeof fast === "string" ? fast : fast.status, slow };
