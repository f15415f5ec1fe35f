class OrderCache {
  #hits = 0;
  #store = new Map();
  async get(id) {
    if (this.#store.has(id)) {
      this.#hits++;
      return this.#store.get(id);
    }
    const order = await tools.orders.lookup({ id });
    this.#store.set(id, order);
    return order;
  }
  get hits() {
    return this.#hits;
  }
}
const cache = new OrderCache();
for (const id of ["c1", "c2", "c1", "c1", "c3"]) await cache.get(id);
return { hits: cache.hits };
