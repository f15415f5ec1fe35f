const attempts = [
  tools.orders.lookup({ id: "90" }),
  tools.demo.fail({ message: "order 91 missing" }),
  tools.orders.lookup({ id: "92" }),
];
const settled = await Promise.allSettled(attempts);
const ok = settled.filter((s) => s.status === "fulfilled").map((s) => s.value.id);
const errors = settled.filter((s) => s.status === "rejected").map((s) => s.reason.message);
return { ok, errors };
