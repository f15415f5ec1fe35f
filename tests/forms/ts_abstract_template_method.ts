abstract class Task<T> {
  constructor(public readonly name: string) {}
  protected abstract execute(): Promise<T>;
  async run(): Promise<{ name: string; result: T }> {
    console.log(`running ${this.name}`);
    return { name: this.name, result: await this.execute() };
  }
}

class LookupTask extends Task<string> {
  constructor(private readonly id: string) {
    super(`lookup ${id}`);
  }
  protected async execute(): Promise<string> {
    return (await tools.orders.lookup({ id: this.id })).status;
  }
}

const results = [];
for (const task of [new LookupTask("at1"), new LookupTask("at2")]) results.push(await task.run());
return results;
