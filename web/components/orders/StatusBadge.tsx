/** An order's status as a coloured badge. */
import type { OrderStatus } from "../../../src/contract/constants.ts";
import "../../styles/order-card.css";

export const statusSlug = (status: string) => status.toLowerCase().replace(/\s+/g, "-");

export function StatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`status-badge status-${statusSlug(status)}`}>{status}</span>;
}

/** A Received order delivered within the last 24 hours. */
export function JustDeliveredBadge() {
  return <span className="status-badge just-delivered-badge">Just Delivered</span>;
}
