(async () => {
  type Outcome = { kind: "ok"; value: number } | { kind: "error"; message: string };

  async function attempt(id: string): Promise<Outcome> {
    try {
      if (id === "bad") await tools.demo.fail({ message: `no order ${id}` });
      const o = await tools.orders.lookup({ id });
      return { kind: "ok", value: o.total };
    } catch (e) {
      return { kind: "error", message: (e as Error).message };
    }
  }

  const outcomes = await Promise.all(["u1", "bad", "u3"].map(attempt));
  return outcomes.map((o) => (o.kind === "ok" ? o.value : `error: ${o.message}`))
})();
