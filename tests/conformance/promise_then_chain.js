const steps = [];
const result = await Promise.resolve(1)
  .then(v => {
    steps.push(v);
    return v + 1;
  })
  .then(v => {
    steps.push(v);
    return Promise.resolve(v * 10);
  })
  .then(v => {
    steps.push(v);
    throw new Error("stop at " + v);
  })
  .then(() => steps.push("skipped"))
  .catch(e => {
    steps.push(e.message);
    return "recovered";
  })
  .finally(() => steps.push("finally"));
return { result, steps };
