/**
 * The order values as the reader sees them: a status's label, the dashboard's status card
 * subtitles (docs/screens.md), the orders list's sort names. The stored, sent and filtered values
 * stay the English constants of src/contract; only what is shown is translated. The guards for
 * values that arrive as text are in order-guards.ts (no catalog there, for web/preload.ts).
 */
import {
  CARRIER_LABELS,
  type Carrier,
  type OrderSort,
  type OrderStatus,
} from "../../src/contract/constants.ts";
import { type MessageId, translate } from "../i18n/index.ts";
import { FILTER_ORDER_LABELS, SORT_LABELS, type StatusFilter } from "./order-list-view.ts";

export { isCarrier, isOrderSort, isOrderStatus } from "./order-guards.ts";

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

/** A carrier's name: its own in every language ("DHL", "Yamato"), apart from "Other", which is translated. */
export function carrierLabel(carrier: Carrier): string {
  return carrier === "OTHER" ? translate("tracking.otherCarrier") : CARRIER_LABELS[carrier];
}

/** A sort's name ("Newest First"; src/contract's ORDER_SORT_LABELS in English). */
export function sortLabel(sort: OrderSort): string {
  return translate(SORT_LABELS[sort]);
}

/** The name of a filter's own ordering ("Arriving Soonest"); "" when it has none. */
export function filterOrderLabel(status: StatusFilter): string {
  const id = status === "all" ? undefined : FILTER_ORDER_LABELS[status];
  return id ? translate(id) : "";
}
