import type { Order, Customer } from "./api-types";
import { type Rec } from "./records";

const order: Order = await tools.orders.lookup({ id: "ti-5" });
const customer: Customer = { id: order.customer };
const { records } = await tools.data.records({ n: 2 });
const recs: Rec[] = records;
return { order: order.id, customer: customer.id, recs: recs.length };
