// BigInt64Array, BigUint64Array and DataView's 64-bit integer accessors (elements convert with ToBigInt).
const a = new BigInt64Array(3); a[0] = -1n; a[1] = 2n ** 63n; a[2] = 5n;
console.log(String(a[0]), String(a[1]), String(a[2]), a.length, a.BYTES_PER_ELEMENT);
const u = new BigUint64Array([1n, -1n, 3n]);
console.log(u.join(","), String(u[1]), [...u].map(String).join(";"));
try { a[0] = 1; } catch (e) { console.log(e.constructor.name); }
try { new BigInt64Array([1]); } catch (e) { console.log(e.constructor.name); }
try { new BigInt64Array(new Int8Array(2)); } catch (e) { console.log(e.constructor.name); }
console.log(u.indexOf(3n), u.includes(-1n), u.includes(18446744073709551615n), u.sort().join(","));
console.log(a.map(x => x * 2n).join(","), a.filter(x => x > 0n).length, String(a.reduce((s, x) => s + x)));
const dv = new DataView(new ArrayBuffer(16));
dv.setBigInt64(0, -2n); dv.setBigUint64(8, 2n ** 64n - 1n, true);
console.log(String(dv.getBigInt64(0)), String(dv.getBigUint64(0)), String(dv.getBigUint64(8, true)), String(dv.getBigInt64(8)));
try { dv.setBigInt64(0, 1); } catch (e) { console.log(e.constructor.name); }
console.log(Object.prototype.toString.call(a), BigInt64Array.name, a.fill(7n).join(), Array.from(u.slice(1)).map(String).join());
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(new BigInt64Array([1n]), "0"), (k, v) => typeof v === "bigint" ? v.toString() : v));
const mixed = []; for (const f of [() => new BigUint64Array(new Float64Array(1)), () => new Float64Array(new BigInt64Array(1)), () => new BigInt64Array(2).set([1]), () => new BigInt64Array(2).fill(1), () => new BigInt64Array(["7", true]).join()]) { try { mixed.push(String(f())); } catch (e) { mixed.push(e.constructor.name); } }
console.log(mixed.join(" "));
return Array.from(new BigInt64Array([-5n, 6n]), String);
