/**
 * Guards for the order values that arrive as text (the address, a select) and the dashboard's
 * status card subtitles (docs/screens.md). Pure.
 */
import {
  CARRIERS,
  type Carrier,
  ORDER_SORTS,
  ORDER_STATUSES,
  type OrderSort,
  type OrderStatus,
} from "../../src/contract/constants.ts";

/** Subtitles of the dashboard's status cards (docs/screens.md). */
export const STATUS_SUBTITLES: Partial<Record<OrderStatus, string>> = {
  Ordered: "Not Shipped",
  Shipped: "In Transit",
  Received: "Ready for Review",
  "Review Submitted": "Waiting for Approval",
  "Review Rejected": "Rewrite Review",
  "Review Approved": "All Done!",
};

export const isOrderStatus = (v: unknown): v is OrderStatus =>
  typeof v === "string" && (ORDER_STATUSES as readonly string[]).includes(v);
export const isCarrier = (v: unknown): v is Carrier =>
  typeof v === "string" && (CARRIERS as readonly string[]).includes(v);
export const isOrderSort = (v: unknown): v is OrderSort =>
  typeof v === "string" && (ORDER_SORTS as readonly string[]).includes(v);
