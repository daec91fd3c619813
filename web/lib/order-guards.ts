/**
 * Guards for the order values that arrive as text (the address, a select). Pure and without the
 * app's words, so the first screen's head start (web/preload.ts, through web/routes.ts and
 * order-list-view.ts) can read the orders list's address without loading a catalog.
 */
import {
  CARRIERS,
  type Carrier,
  ORDER_SORTS,
  ORDER_STATUSES,
  type OrderSort,
  type OrderStatus,
} from "../../src/contract/constants.ts";

export const isOrderStatus = (v: unknown): v is OrderStatus =>
  typeof v === "string" && (ORDER_STATUSES as readonly string[]).includes(v);
export const isCarrier = (v: unknown): v is Carrier =>
  typeof v === "string" && (CARRIERS as readonly string[]).includes(v);
export const isOrderSort = (v: unknown): v is OrderSort =>
  typeof v === "string" && (ORDER_SORTS as readonly string[]).includes(v);
