interface Formatter {
  format(value: number): string;
}

class Percent implements Formatter {
  constructor(private digits: number = 1) {}
  format(value: number): string {
    return `${(value * 100).toFixed(this.digits)}%`;
  }
}

const { records } = await tools.data.records({ n: 30 });
const share = records.filter((r: { status: string }) => r.status === "pending").length / records.length;
const f: Formatter = new Percent(2);
return f.format(share);
