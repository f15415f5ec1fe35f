// Typed arrays: construction, integer-indexed element access, conversions, methods.
const out = {};
const a = new Uint8Array([1, 2, 300, -1]);
out.elements = Array.from(a);
out.length = [a.length, a.byteLength, a.byteOffset, a.buffer.byteLength];
out.outOfRange = [a[4], a[-1], a["1.5"], a["-0"]];
a[10] = 7;
a["-0"] = 9;
out.afterIgnoredWrites = [a.length, Object.keys(a).join(","), a[10]];
out.has = [0 in a, 3 in a, 4 in a, "-0" in a, "1.5" in a];
out.conversions = {
  int8: Array.from(new Int8Array([127, 128, 255, -129, 1.9, -1.9, NaN, Infinity])),
  uint16: Array.from(new Uint16Array([65536, -1, 65535.5])),
  int32: Array.from(new Int32Array([2147483648, -2147483649, 4294967297])),
  uint32: Array.from(new Uint32Array([-1, 4294967296])),
  clamped: Array.from(new Uint8ClampedArray([1.5, 2.5, 3.5, 300, -5, NaN, 254.5])),
  float32: Array.from(new Float32Array([0.1, 1e40, -0])),
  float64: Array.from(new Float64Array([0.1, -0, NaN])).map(String),
  strings: Array.from(new Int16Array(["12", "x", "", " 7 "])),
};
out.bytesPerElement = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
  Uint32Array, Float32Array, Float64Array].map(C => [C.name, C.BYTES_PER_ELEMENT, C.prototype.BYTES_PER_ELEMENT]);
const TypedArray = Object.getPrototypeOf(Int8Array);
out.intrinsic = [TypedArray === Object.getPrototypeOf(Float64Array), TypedArray.name,
  Object.getPrototypeOf(Int8Array.prototype) === TypedArray.prototype, typeof TypedArray.prototype.map];
try { new TypedArray(); } catch (e) { out.abstract = e.name; }
try { Uint8Array(2); } catch (e) { out.callWithoutNew = e.name; }
try { new Uint8Array(-1); } catch (e) { out.negativeLength = e.name; }
// Views over one buffer share bytes (little-endian).
const buf = new ArrayBuffer(8);
const u8 = new Uint8Array(buf);
const u32 = new Uint32Array(buf, 4, 1);
u32[0] = 0x01020304;
out.shared = [Array.from(u8), u32.byteOffset, u32.length];
try { new Uint32Array(buf, 3); } catch (e) { out.misaligned = e.name; }
try { new Uint16Array(new ArrayBuffer(3)); } catch (e) { out.badLength = e.name; }
try { new Uint8Array(buf, 2, 10); } catch (e) { out.tooLong = e.name; }
// Copying constructors.
out.fromTyped = Array.from(new Int8Array(new Float64Array([1.7, -200])));
out.fromSet = Array.from(new Uint8Array(new Set([5, 6])));
out.fromArrayLike = Array.from(new Uint8Array({ length: 3, 0: 1, 2: 3 }));
out.from = Array.from(Uint8Array.from([1, 2, 3], (x, i) => x * 10 + i));
out.of = Array.from(Int16Array.of(1, -1, 40000));
// Methods.
const t = new Int16Array([5, -3, 9, 0, 9]);
out.methods = {
  at: [t.at(0), t.at(-1), t.at(9)],
  indexOf: [t.indexOf(9), t.lastIndexOf(9), t.indexOf(4), t.includes(-3), t.indexOf(9, 3)],
  join: [t.join(), t.join(" | "), String(t), t.toString()],
  slice: Array.from(t.slice(1, -1)),
  subarray: (() => { const s = t.subarray(1, 3); s[0] = 100; return [Array.from(s), t[1], s.byteOffset]; })(),
  fill: Array.from(new Uint8Array(5).fill(7, 1, -1)),
  set: (() => { const x = new Uint8Array(6); x.set([1, 2]); x.set(new Int8Array([-1, 3]), 3); return Array.from(x); })(),
  reverse: Array.from(new Uint8Array([1, 2, 3]).reverse()),
  toReversed: Array.from(new Uint8Array([1, 2, 3]).toReversed()),
  with: Array.from(new Uint8Array([1, 2, 3]).with(-1, 300)),
  copyWithin: Array.from(new Uint8Array([1, 2, 3, 4, 5]).copyWithin(0, 3)),
  sort: Array.from(new Float64Array([3, -0, 0, NaN, -Infinity, 1]).sort()).map(String),
  sortCompare: Array.from(new Int32Array([3, 1, 2]).sort((x, y) => y - x)),
  toSorted: Array.from(new Uint8Array([3, 1, 2]).toSorted()),
  map: Array.from(new Uint8Array([1, 2, 200]).map(x => x * 2)),
  filter: Array.from(new Int8Array([1, -2, 3]).filter(x => x > 0)),
  reduce: new Uint8Array([1, 2, 3]).reduce((s, x) => s + x),
  reduceRight: new Uint8Array([1, 2, 3]).reduceRight((s, x) => s + "" + x, ""),
  find: [t.find(x => x > 5), t.findIndex(x => x < 0), t.findLast(x => x > 5), t.findLastIndex(x => x > 100)],
  someEvery: [t.some(x => x < 0), t.every(x => x < 1000)],
  forEach: (() => { const seen = []; new Uint8Array([4, 5]).forEach((v, i, arr) => seen.push(v, i, arr.length)); return seen; })(),
  keys: Array.from(new Uint8Array(3).keys()),
  values: [...new Uint8Array([7, 8]).values()],
  entries: [...new Uint8Array([7, 8]).entries()],
};
out.iteration = (() => { const r = []; for (const x of new Float32Array([0.5, 1.5])) r.push(x); return [r, [...new Uint8Array([9, 8])], Array.from(new Int8Array([-1]))]; })();
out.json = JSON.stringify({ t: new Uint8Array([1, 2]), empty: new Float64Array(0) });
out.tags = [Object.prototype.toString.call(new Float32Array(1)), Object.prototype.toString.call(new ArrayBuffer(1))];
out.ownKeys = Object.keys(new Uint8Array(3));
out.isView = [ArrayBuffer.isView(new Uint8Array(1)), ArrayBuffer.isView(new DataView(new ArrayBuffer(1))), ArrayBuffer.isView([])];
out.getters = (() => {
  const d = Object.getOwnPropertyDescriptor(TypedArray.prototype, "length");
  return [typeof d.get, d.set, d.enumerable, Object.getOwnPropertyNames(new Uint8Array(2)).join()];
})();
class Bytes extends Uint8Array { sum() { return this.reduce((s, x) => s + x, 0); } }
const bytes = new Bytes([1, 2, 3]);
out.subclass = [bytes.sum(), bytes instanceof Uint8Array, bytes.length];
const clone = structuredClone({ t: new Int16Array([1, -2]), b: new Uint8Array([1, 2]).buffer });
out.structuredClone = [clone.t instanceof Int16Array, Array.from(clone.t), clone.b.byteLength, clone.b instanceof ArrayBuffer];
// ArrayBuffer.
const ab = new ArrayBuffer(6);
new Uint8Array(ab).set([1, 2, 3, 4, 5, 6]);
out.arrayBuffer = {
  slice: Array.from(new Uint8Array(ab.slice(1, -2))),
  sliceNeg: ab.slice(-2).byteLength,
  resizable: ab.resizable,
};
const rab = new ArrayBuffer(4, { maxByteLength: 8 });
const tracking = new Uint8Array(rab);
rab.resize(8);
const grown = tracking.length;
rab.resize(2);
out.resizable = [rab.resizable, rab.maxByteLength, grown, tracking.length, rab.byteLength];
try { rab.resize(9); } catch (e) { out.resizeTooBig = e.name; }
try { new ArrayBuffer(-1); } catch (e) { out.negativeBuffer = e.name; }
// A program's valueOf/toString converts arguments; other objects convert as built-ins do.
let conversions = 0;
const two = { valueOf() { conversions++; return 2; } };
out.userConversions = [
  new Uint8Array([1, 2, 3]).at({ valueOf() { return -1; } }),
  Array.from(new Uint8Array(4).fill({ valueOf() { return 5; } }, two)),
  new DataView(new ArrayBuffer(4)).getUint8({ toString() { return "1"; } }),
  new Uint8Array(new ArrayBuffer(8), two).length,
  new Int8Array([7, 8]).at([]), new Int8Array([7, 8]).at(function () {}),
  conversions,
];
try { new Uint8Array(2).fill(0, { valueOf() { throw new RangeError("from valueOf"); } }); } catch (e) { out.throwingValueOf = e.message; }
const savedToLocale = Number.prototype.toLocaleString;
Number.prototype.toLocaleString = function () { return "<" + this + ">"; };
out.toLocaleString = [new Float64Array([1, 2.5]).toLocaleString(), new Uint8Array(0).toLocaleString()];
Number.prototype.toLocaleString = savedToLocale;
return out;
