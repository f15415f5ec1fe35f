// Arrays shared at several places (a DAG): join, toString, flat at each depth and stringify see
// every occurrence, in order.
const x = [1, [2, null, 3], undefined];
const y = [x, x, [x, [x]], "s"];
const z = [y, [y], x];
let dag = ["leaf"];
for (let i = 0; i < 4; i++) dag = [dag, i, dag];
return {
  str: String(z),
  joined: y.join("-"),
  flat1: y.flat(),
  flat2: y.flat(2),
  flatAll: z.flat(Infinity),
  json: JSON.stringify(z),
  dag: String(dag),
  dagFlat: dag.flat(Infinity).length,
  dagFlat2: dag.flat(2),
};
