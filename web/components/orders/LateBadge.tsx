/**
 * "Late" on an order card: a Shipped order whose expected delivery day is before
 * today in the user's zone, the same rule as the dashboard's late count (src/contract/dashboard.ts
 * `ShippedLate`). Its own file so the card needs one line for it.
 */
import type { Order } from "../../../src/contract/orders.ts";
import { useT } from "../../i18n/index.ts";
import { dayDiff, dayKey } from "../../lib/order-days.ts";

/** Whole days a Shipped order is past its expected day; 0 when it is not late. */
export function daysLate(
  order: Pick<Order, "status" | "expecteddeliverydate">,
  now: Date,
  timeZone: string,
): number {
  if (order.status !== "Shipped") return 0;
  const expected = dayKey(order.expecteddeliverydate, timeZone);
  const today = dayKey(now, timeZone);
  if (!expected || !today) return 0;
  return Math.max(0, dayDiff(expected, today));
}

export function LateBadge(props: {
  order: Pick<Order, "status" | "expecteddeliverydate">;
  now: Date;
  timeZone: string;
}) {
  const t = useT();
  const days = daysLate(props.order, props.now, props.timeZone);
  if (days === 0) return null;
  return (
    <span className="status-badge late-badge" title={t("card.lateTitle", { count: days })}>
      {t("card.late")}
    </span>
  );
}
