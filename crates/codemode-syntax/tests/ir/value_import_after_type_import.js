import type { Order } from "./types";
import { lookup } from "./api";
await lookup("1");
