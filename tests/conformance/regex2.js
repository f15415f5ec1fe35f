const re = /(?<year>\d{4})-(?<month>\d{2})/;
const m = "on 2024-03 and 2025-04".match(re);
const all = [..."on 2024-03 and 2025-04".matchAll(/(\d{4})-(\d{2})/g)].map(x => x[1]);
const replaced = "john smith".replace(/(\w+) (\w+)/, "$2, $1");
const fnReplaced = "a1b22c333".replace(/\d+/g, d => `<${d.length}>`);
const g = /a/g; const t = [g.test("aa"), g.lastIndex, g.test("aa"), g.lastIndex, g.test("aa")];
return { groups: m.groups, idx: m.index, all, replaced, fnReplaced, t, flags: /x/gi.flags, src: /a\/b/.source, split: "a1b2c".split(/\d/), search: "hello".search(/l+/) };
