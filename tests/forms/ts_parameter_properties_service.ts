class OrderService {
  constructor(private readonly prefix: string, public calls: number = 0) {}
  async get(n: number) {
    this.calls++;
    return tools.orders.lookup({ id: `${this.prefix}${n}` });
  }
}

const svc = new OrderService("svc-");
const orders = await Promise.all([1, 2, 3].map((n) => svc.get(n)));
return { calls: svc.calls, ids: orders.map((o: { id: string }) => o.id) };
