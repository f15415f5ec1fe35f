const delayed = async (v) => {
  await null;
  return v;
};
const all = await Promise.all([delayed(1), 2, Promise.resolve(3), delayed("four")]);
const empty = await Promise.all([]);
let failure;
try {
  await Promise.all([delayed(1), Promise.reject(new Error("one failed"))]);
} catch (e) {
  failure = e.message;
}
return { all, empty, failure };
