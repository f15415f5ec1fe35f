class NotFoundError extends Error {
  constructor(public readonly id: string, public readonly code = 404) {
    super(`order ${id} not found`);
    this.name = "NotFoundError";
  }
}

const errors: NotFoundError[] = [];
for (const id of ["ce-1", "ce-2"]) {
  const o = await tools.orders.lookup({ id });
  if (o.status !== "open") errors.push(new NotFoundError(id));
}
return { errors };
