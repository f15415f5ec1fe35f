// Huge buffers and typed arrays are refused before they are allocated: catchable RangeErrors.
// expect: value "RangeError,RangeError,RangeError,RangeError,RangeError,8"
// timeout-ms: 5000
// memory-limit: 64MiB
const names = [];
for (const make of [
  () => new ArrayBuffer(1e12),
  () => new Float64Array(2 ** 28),
  () => new Uint8Array(200 * 1024 * 1024),
  () => new ArrayBuffer(8, { maxByteLength: 1e12 }),
  () => new ArrayBuffer(1e3, { maxByteLength: 200 * 1024 * 1024 }).resize(200 * 1024 * 1024),
]) {
  try { make(); names.push("none"); } catch (e) { names.push(e.name); }
}
names.push(new ArrayBuffer(8).byteLength);
return names.join(",");
