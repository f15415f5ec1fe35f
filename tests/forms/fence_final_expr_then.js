Here you go:
```js
tools.orders.lookup({ id: "120" }).then((o) => `${o.id} is ${o.status}`)
```
