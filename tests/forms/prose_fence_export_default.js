The entry point is the default export:

```js
export default async function main() {
  const { records } = await tools.data.records({ n: 5 });
  return records.map((r) => r.title);
}
```
