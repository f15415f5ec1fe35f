```typescript
abstract class Report {
  constructor(protected readonly title: string, private readonly rows: number[]) {}
  abstract format(total: number): string;
  render(): string {
    const total = this.rows.reduce((a, b) => a + b, 0);
    return `${this.title}: ${this.format(total)}`;
  }
}

class MoneyReport extends Report {
  constructor(title: string, rows: number[], public currency: string) {
    super(title, rows);
  }
  format(total: number): string {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: this.currency }).format(total);
  }
}

const orders = await Promise.all(["p1", "p2", "p3"].map((id) => tools.orders.lookup({ id })));
const report = new MoneyReport("Order totals", orders.map((o: { total: number }) => o.total), "USD");
return { text: report.render(), currency: report.currency };
```
