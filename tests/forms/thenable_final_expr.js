const total = (await tools.data.records({ n: 5 })).records.length;
({ then(resolve) { resolve({ total, via: "thenable" }); } })
