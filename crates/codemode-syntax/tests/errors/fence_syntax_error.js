```ts
const a = 1;
const b = ;
```
