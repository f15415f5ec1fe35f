// RegExp source/flags/flag accessors and Map/Set size are getters on the prototypes (EscapeRegExpPattern, generic flags, receivers checked); a RegExp's one own property is lastIndex.
const out = [];
const re = /a\/b[/]c/gimsuy;
out.push(re.source, re.flags, re.global, re.sticky, re.unicode, re.hasIndices, Object.keys(re).join(), Object.getOwnPropertyNames(re).join());
out.push(String(re), re.toString(), new RegExp("x/y\n").source, RegExp.prototype.source, RegExp.prototype.global, RegExp.prototype.flags);
const d = Object.getOwnPropertyDescriptor(RegExp.prototype, "global");
out.push(typeof d.get, d.get.name, d.set, d.enumerable, d.configurable);
try { d.get.call({}); } catch (e) { out.push(e.name); }
out.push(Object.getOwnPropertyDescriptor(RegExp.prototype, "flags").get.call({ global: 1, sticky: true, hasIndices: 0 }));
const m = new Map([[1, 2]]), s = new Set([1, 2, 3]);
out.push(m.size, s.size, Object.getOwnPropertyDescriptor(Map.prototype, "size").get.name);
try { Object.getOwnPropertyDescriptor(Map.prototype, "size").get.call(s); } catch (e) { out.push(e.name); }
try { Map.prototype.size; } catch (e) { out.push(e.name); }
out.push("aXbX".replace(/x/gi, "-"), "abc".match(/b/).index, /(?<y>\d+)/.exec("ab12").groups.y, [..."a1b2".matchAll(/\d/g)].length, "a,b".split(/,/).length);
class R extends RegExp {}
out.push(new R("q", "g").global, new R("q", "g").flags);
out.push(JSON.stringify(/x/g), JSON.stringify({ s: new Set([1]).size }));
return out;
