// Arrays of up to two elements keep them inline; every array operation must behave the same
// when such an array grows past two, shrinks back, or is rebuilt in place.
const log = [];

const pair = "a:b".split(":");
pair.push("c");
pair.unshift("z");
log.push(pair.join(), pair.length);
pair.splice(1, 2, "x");
log.push(pair.join(), pair.shift(), pair.pop(), pair.length, pair.join());
pair.push(1, 2, 3, 4, 5);
log.push(pair.length, pair[4]);

const entries = Object.entries({ k: 1, m: 2 });
entries[0].push("extra");
entries[1].length = 1;
entries[1][5] = "far";
log.push(JSON.stringify(entries), entries[1].length);

const small = [3, 1];
small.sort((a, b) => a - b);
small.reverse();
small.splice(1, 0, 2, 2.5);
log.push(small.join(), small.indexOf(2.5), small.includes(1));

const one = [];
one.unshift(1);
one.unshift(0);
one.splice(0, 0, -1);
log.push(one.join(), one.slice(1).join(), [...one].length);

const grown = [];
for (let i = 0; i < 10; i++) grown.push(i);
while (grown.length > 1) grown.pop();
grown.push("again");
log.push(grown.join());

const m = new Map([["p", 1]]);
const [entry] = m;
entry.push("more");
log.push(entry.join(), Array.from(m.entries())[0].length);

const split3 = "1,2,3".split(",");
const split1 = "solo".split(",");
split1.push(...split3);
log.push(split1.join("|"), split1.length, Array.isArray(split1));

const filled = Array.from({ length: 2 }, (_, i) => i * 10);
filled.copyWithin(0, 1);
filled.fill(7, 1);
filled.push(filled.at(-1) + 1);
log.push(filled.join());

return log;
