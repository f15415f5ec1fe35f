Here is the program:

```ts
const n: number = (await tools.orders.list({})).length;
n
```

It returns the number of orders.
