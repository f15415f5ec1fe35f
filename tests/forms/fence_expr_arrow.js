```javascript
async () => (await tools.data.records({ n: 3 })).records.map((r) => r.status)
```
