// Reads of methods through prototypes (arr.push, s.split, n.toFixed) must see every change a
// program makes to the prototypes, at the same site, in the same loop. (Everything changed is
// put back at the end: the Node oracle runs all programs in one realm.)
const log = [];
const originalSplit = String.prototype.split;
const read = (o, round) => { const f = o.probe; return typeof f === "function" ? f.call(o, round) : String(f); };

Array.prototype.probe = function (r) { return "v1:" + r + ":" + this.length; };
const arr = [1, 2];
for (let r = 0; r < 8; r++) {
  if (r === 2) Array.prototype.probe = function (r) { return "v2:" + r; };
  if (r === 3) delete Array.prototype.probe;
  if (r === 4) Object.defineProperty(Array.prototype, "probe", { get() { return "getter:" + this.length; }, configurable: true });
  if (r === 5) Object.defineProperty(Array.prototype, "probe", { value: () => "redefined", writable: true, configurable: true });
  if (r === 6) arr.probe = () => "own";
  if (r === 7) { delete arr.probe; Object.setPrototypeOf(arr, { probe: () => "other proto" }); }
  log.push(read(arr, r));
}
delete Array.prototype.probe;

// Primitives read their prototypes' methods; a program's own additions are seen at once.
const texts = ["a-b", "c-d-e"];
for (let r = 0; r < 4; r++) {
  if (r === 2) String.prototype.split = ((orig) => function (sep) { return ["patched", ...orig.call(this, sep)]; })(String.prototype.split);
  log.push(texts[r % 2].split("-"));
}
for (let r = 0; r < 3; r++) {
  if (r === 1) Number.prototype.twice = function () { return this * 2; };
  const n = 21;
  log.push(typeof n.twice === "function" ? n.twice() : "none");
}
for (let r = 0; r < 3; r++) {
  if (r === 1) Boolean.prototype.flip = function () { return !this.valueOf(); };
  log.push(typeof true.flip === "function" ? true.flip() : "none");
}

// `length` and indexes are the receiver's own.
log.push("abc".length, [4, 5, 6].length, "abc"[1]);

// Many sites and many names at once (entries collide and are replaced).
const names = ["map", "filter", "slice", "concat", "join", "indexOf", "includes", "at", "every", "some"];
const seen = [];
for (let r = 0; r < 3; r++) for (const name of names) seen.push(typeof [][name]);
log.push(seen.every(t => t === "function"), seen.length);
// Objects with many properties of their own (Math, the global object) are cached as their
// own holders: replacing, deleting and adding their properties is seen at once too.
const originalAbs = Math.abs;
const absSeen = [];
for (let r = 0; r < 5; r++) {
  if (r === 1) Math.abs = x => "patched:" + x;
  if (r === 2) delete Math.abs;
  if (r === 3) Object.defineProperty(Math, "abs", { get: () => () => "getter", configurable: true });
  if (r === 4) Object.defineProperty(Math, "abs", { value: originalAbs, writable: true, configurable: true });
  absSeen.push(typeof Math.abs === "function" ? Math.abs(-r) : "none");
}
log.push(absSeen);
const dict = {};
for (let i = 0; i < 40; i++) dict["key" + i] = i;
const dictSeen = [];
for (let r = 0; r < 4; r++) {
  if (r === 1) dict.key7 = "changed";
  if (r === 2) delete dict.key7;
  if (r === 3) dict.key7 = "back";
  dictSeen.push(dict.key7, dict.key39);
}
log.push(dictSeen);
globalThis.cacheProbe = 1;
const globalSeen = [];
for (let r = 0; r < 3; r++) {
  if (r === 1) globalThis.cacheProbe = 2;
  if (r === 2) delete globalThis.cacheProbe;
  globalSeen.push(typeof cacheProbe === "undefined" ? "gone" : cacheProbe);
}
log.push(globalSeen);
String.prototype.split = originalSplit;
delete Number.prototype.twice;
delete Boolean.prototype.flip;
return log;
