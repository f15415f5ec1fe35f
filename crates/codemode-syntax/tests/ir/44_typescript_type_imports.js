import type { Order } from "./types";
import { type Id } from "./types";
export type { Order };
export interface Shape { id: Id }
const order: Order = await tools.orders.lookup({ id: "1" });
order.status
