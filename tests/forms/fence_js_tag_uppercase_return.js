```JS
const echoed = await tools.demo.echo(["a", "b", "c"]);
return echoed.join("-");
```
