```javascript
const { records } = await tools.data.records({ n: 24 });
const avg = records.reduce((s, r) => s + r.score, 0) / records.length;
Math.round(avg * 100) / 100
```
