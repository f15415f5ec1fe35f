const g = async function* () {
  yield await 1;
};
for await (const x of g()) {
  x;
}
