// DataView: every getter and setter, both byte orders, bounds.
const buf = new ArrayBuffer(16);
const dv = new DataView(buf);
const out = {};
out.props = [dv.byteLength, dv.byteOffset, dv.buffer === buf];
dv.setInt8(0, -5);
dv.setUint8(1, 250);
dv.setInt16(2, -2);
dv.setUint16(4, 0xBEEF, true);
dv.setInt32(6, -123456789);
dv.setUint32(10, 0xDEADBEEF, true);
out.bytes = Array.from(new Uint8Array(buf));
out.reads = [
  dv.getInt8(0), dv.getUint8(0), dv.getUint8(1), dv.getInt16(2), dv.getInt16(2, true),
  dv.getUint16(4, true), dv.getUint16(4), dv.getInt32(6), dv.getUint32(10, true), dv.getUint32(10),
];
dv.setFloat32(0, 1.5);
dv.setFloat64(8, -0.1, true);
out.floats = [dv.getFloat32(0), dv.getFloat32(0, true), dv.getFloat64(8, true), dv.getFloat64(8)];
out.floatBytes = Array.from(new Uint8Array(buf, 0, 4));
dv.setUint8(0, 256 + 7);
dv.setInt16(0, 70000);
out.wrapping = [dv.getUint8(1), dv.getInt16(0)];
const part = new DataView(buf, 4, 8);
part.setUint8(0, 42);
out.window = [part.byteLength, part.byteOffset, new Uint8Array(buf)[4], new DataView(buf, 12).byteLength];
for (const [name, f] of [
  ["pastEnd", () => dv.getInt32(14)],
  ["negative", () => dv.getInt8(-1)],
  ["windowEnd", () => part.setFloat64(1, 1)],
  ["badOffset", () => new DataView(buf, 17)],
  ["badLength", () => new DataView(buf, 8, 9)],
  ["notBuffer", () => new DataView([])],
  ["noNew", () => DataView(buf)],
]) {
  try { f(); out[name] = "no error"; } catch (e) { out[name] = e.name; }
}
out.tag = Object.prototype.toString.call(dv);
out.getterNames = ["buffer", "byteLength", "byteOffset"].map(k => typeof Object.getOwnPropertyDescriptor(DataView.prototype, k).get);
return out;
