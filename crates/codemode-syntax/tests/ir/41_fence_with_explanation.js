```javascript
const total = (await tools.orders.list({})).length;
total
```

This program counts the orders.
