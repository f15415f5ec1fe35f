const results = [];
for (const id of ["s1", "s2", "s3"]) {
  const order = await tools.orders.lookup({ id });
  results.push(`${order.id}=${order.total}`);
  console.log("fetched", order.id);
}
return results;
