// crypto.randomUUID is a v4 UUID; getRandomValues fills integer typed arrays in place.
const uuid = crypto.randomUUID();
const re = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ids = new Set();
for (let i = 0; i < 50; i++) ids.add(crypto.randomUUID());
const u8 = new Uint8Array(64);
const same = crypto.getRandomValues(u8) === u8;
const u32 = crypto.getRandomValues(new Uint32Array(8));
const errors = [];
for (const bad of [() => crypto.getRandomValues(new Float32Array(1)), () => crypto.getRandomValues({}), () => crypto.getRandomValues(new Uint8Array(65537))]) {
  try { bad(); errors.push("none"); } catch (e) { errors.push(e instanceof TypeError || e.name); }
}
const max = crypto.getRandomValues(new Uint8Array(65536)).length;
return {
  type: typeof crypto, uuid: re.test(uuid), distinct: ids.size, same,
  inRange: u32.every(x => Number.isInteger(x) && x >= 0 && x < 2 ** 32),
  notAllZero: u8.some(x => x !== 0), errors, max,
  fns: [typeof crypto.randomUUID, typeof crypto.getRandomValues],
};
