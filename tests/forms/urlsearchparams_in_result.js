const params = new URLSearchParams({ q: "open orders", page: "2" });
params.append("sort", "-total");
return { query: params, url: `https://shop.example/search?${params}` };
