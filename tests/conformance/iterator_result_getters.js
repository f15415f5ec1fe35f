// Iterator results whose done/value are getters: read in protocol order by for-of, destructuring,
// spread, Array.from and built-ins that take an iterable; a throwing getter propagates.
const log = [];
function iterOf(results) {
  let i = 0;
  return { [Symbol.iterator]() { return { next() { return results[i++]; } }; } };
}
function getterResult(done, value) {
  return {
    get done() { log.push("done?" + done); return done; },
    get value() { log.push("value:" + value); return value; },
  };
}
for (const x of iterOf([getterResult(false, 1), { done: false, get value() { log.push("v2"); return 2; } }, getterResult(true, 3)])) log.push("got " + x);
const [a, b] = iterOf([getterResult(false, "a"), getterResult(false, "b"), getterResult(true)]);
log.push(a + b);
log.push(JSON.stringify([...iterOf([getterResult(false, 7), getterResult(true, 8)])]));
log.push(JSON.stringify(Array.from(iterOf([getterResult(false, 9), getterResult(true)]))));
const poisoned = { done: false };
Object.defineProperty(poisoned, "value", { get() { throw new Error("poisoned value"); } });
try { for (const x of iterOf([poisoned])) log.push(x); } catch (e) { log.push(e.message); }
try { [...iterOf([poisoned])]; } catch (e) { log.push("spread " + e.message); }
try { new Map(iterOf([poisoned])); } catch (e) { log.push("map " + e.message); }
const poisonedDone = {}; Object.defineProperty(poisonedDone, "done", { get() { throw new Error("poisoned done"); } });
try { for (const x of iterOf([poisonedDone])) log.push(x); } catch (e) { log.push(e.message); }
return log;
