const timeout = (ms) => tools.demo.sleep({ ms, value: "timeout" });
const slow = tools.demo.sleep({ ms: 200, value: "slow result" });
const fast = tools.demo.sleep({ ms: 1, value: "fast result" });
const first = await Promise.race([fast, timeout(100)]);
const second = await Promise.race([slow, timeout(5)]);
return { first, second };
