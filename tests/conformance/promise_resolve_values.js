const p = Promise.resolve(42);
const same = Promise.resolve(p) === p;
const fromThen = await new Promise(resolve => resolve("constructed"));
const rejected = await new Promise((_, reject) => reject(new Error("nope"))).catch(e => e.message);
const nested = await Promise.resolve(Promise.resolve("nested"));
return { value: await p, same, fromThen, rejected, nested };
