class Counter {
  private count = 0;
  protected readonly step: number;
  public static created = 0;
  constructor(step: number) {
    this.step = step;
    Counter.created++;
  }
  public tick(): number {
    this.count += this.step;
    return this.count;
  }
}

const c = new Counter(5);
const { records } = await tools.data.records({ n: 4 });
for (const _ of records) c.tick();
return { value: c.tick(), created: Counter.created };
