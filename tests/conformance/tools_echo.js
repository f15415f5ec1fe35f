const value = { s: "text", n: 1.5, b: true, nil: null, list: [1, "two", { three: 3 }], nested: { deep: { x: [] } } };
const echoed = await tools.demo.echo(value);
const str = await tools.demo.echo("just a string");
const num = await tools.demo.echo(-12.25);
echoed.s = "changed";
return { echoed, original: value.s, str, num, sameObject: echoed === value };
