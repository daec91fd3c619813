/**
 * Guards for the order values that arrive as text (the address, a select), an order status's label
 * in the reader's language and the dashboard's status card subtitles (docs/screens.md). Pure.
 */
import {
  CARRIERS,
  type Carrier,
  ORDER_SORTS,
  ORDER_STATUSES,
  type OrderSort,
  type OrderStatus,
} from "../../src/contract/constants.ts";
import { type MessageId, translate } from "../i18n/index.ts";

const STATUS_LABELS: Record<OrderStatus, MessageId> = {
  Ordered: "status.ordered",
  Shipped: "status.shipped",
  Received: "status.received",
  "Review Submitted": "status.reviewSubmitted",
  "Review Approved": "status.reviewApproved",
  "Review Rejected": "status.reviewRejected",
  Canceled: "status.canceled",
};

/**
 * A status as the reader sees it ("Review Submitted", "Rezension eingereicht"). The stored,
 * sent and filtered value stays the English `OrderStatus`; only what is shown is translated.
 * Every screen that shows a status calls this.
 */
export function statusLabel(status: OrderStatus): string {
  return translate(STATUS_LABELS[status]);
}

const STATUS_SUBTITLES: Partial<Record<OrderStatus, MessageId>> = {
  Ordered: "status.subtitle.ordered",
  Shipped: "status.subtitle.shipped",
  Received: "status.subtitle.received",
  "Review Submitted": "status.subtitle.reviewSubmitted",
  "Review Rejected": "status.subtitle.reviewRejected",
  "Review Approved": "status.subtitle.reviewApproved",
};

/** The subtitle of a dashboard status card (docs/screens.md): "Not Shipped", "In Transit"… */
export function statusSubtitle(status: OrderStatus): string {
  const id = STATUS_SUBTITLES[status];
  return id ? translate(id) : "";
}

export const isOrderStatus = (v: unknown): v is OrderStatus =>
  typeof v === "string" && (ORDER_STATUSES as readonly string[]).includes(v);
export const isCarrier = (v: unknown): v is Carrier =>
  typeof v === "string" && (CARRIERS as readonly string[]).includes(v);
export const isOrderSort = (v: unknown): v is OrderSort =>
  typeof v === "string" && (ORDER_SORTS as readonly string[]).includes(v);
