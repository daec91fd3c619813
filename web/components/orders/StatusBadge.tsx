/** An order's status as a coloured badge. */
import type { OrderStatus } from "../../../src/contract/constants.ts";
import { useT } from "../../i18n/index.ts";
import { statusLabel } from "../../lib/order-status.ts";
import "../../styles/order-card.css";

export const statusSlug = (status: string) => status.toLowerCase().replace(/\s+/g, "-");

export function StatusBadge({ status }: { status: OrderStatus }) {
  useT(); // re-renders when the language changes
  return <span className={`status-badge status-${statusSlug(status)}`}>{statusLabel(status)}</span>;
}

/** A Received order delivered within the last 24 hours. */
export function JustDeliveredBadge() {
  const t = useT();
  return <span className="status-badge just-delivered-badge">{t("card.justDelivered")}</span>;
}
