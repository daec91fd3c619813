/**
 * Delivery date colours, "Just Delivered" and the days since delivery (docs/screens.md,
 * docs/behaviour.md#constants-and-limits). Pure.
 */
import type { Order } from "../../src/contract/orders.ts";
import { translate } from "../i18n/index.ts";
import { type DateInput, daysSince, toDate, type UrgencyLevel, urgencyLevel } from "./format.ts";
import { dayDiff, dayKey, displayDay } from "./order-days.ts";

const HOUR_MS = 3_600_000;
export const JUST_DELIVERED_MS = 24 * HOUR_MS;

/** today green, tomorrow blue, future purple, estimated text only orange, none (also past days). */
export type DeliveryTone = "today" | "tomorrow" | "future" | "estimated" | "none";

export type DeliveryInfo = { tone: DeliveryTone; text: string | null };

/**
 * How an order's expected delivery is shown. A known day (parsed from the text or not) is coloured
 * by how far away it is in the user's zone; only text with no day gives the orange "estimated".
 */
export function deliveryInfo(
  order: Pick<Order, "expecteddeliverydate" | "expecteddeliverydatetext">,
  now: Date = new Date(),
  timeZone?: string,
): DeliveryInfo {
  const day = dayKey(order.expecteddeliverydate, timeZone);
  if (day) {
    const today = dayKey(now, timeZone)!;
    const diff = dayDiff(today, day);
    const tone: DeliveryTone =
      diff === 0 ? "today" : diff === 1 ? "tomorrow" : diff > 1 ? "future" : "none";
    const text =
      diff === 0
        ? translate("time.today")
        : diff === 1
          ? translate("time.tomorrow")
          : displayDay(order.expecteddeliverydate, timeZone);
    return { tone, text };
  }
  const text = (order.expecteddeliverydatetext ?? "").trim();
  if (text) return { tone: "estimated", text };
  return { tone: "none", text: null };
}

/** A Received order delivered less than 24 hours ago. */
export function isJustDelivered(
  order: Pick<Order, "status" | "datedelivered">,
  now: Date = new Date(),
): boolean {
  if (order.status !== "Received") return false;
  const d = toDate(order.datedelivered);
  if (!d) return false;
  const age = now.getTime() - d.getTime();
  return age >= 0 && age < JUST_DELIVERED_MS;
}

/** "Delivered today", "1 day since delivery", "16 days since delivery", with the Received urgency. */
export function deliveryAge(
  datedelivered: DateInput,
  now: Date = new Date(),
): { text: string; urgency: UrgencyLevel } | null {
  const days = daysSince(datedelivered, now);
  if (days === null) return null;
  const d = Math.max(0, days);
  const text =
    d === 0 ? translate("card.deliveredToday") : translate("card.daysSinceDelivery", { count: d });
  return { text, urgency: urgencyLevel(d, "received") };
}
