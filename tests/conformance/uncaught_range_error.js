async function check(limit) {
  await null;
  throw new RangeError(`limit ${limit} exceeded`);
}
await check(3);
return "unreachable";
