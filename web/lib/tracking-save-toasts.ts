/**
 * The toasts of saving a tracking number (docs/messages.md), pure. Apart from tracking-toasts.ts
 * (the look-up toasts, loaded on demand) because the save hook lives in the first screen's bundle.
 */
import type { TrackingUpdateResponse } from "../../src/contract/orders.ts";
import { toDate } from "./format.ts";
import { displayDay } from "./order-days.ts";

export const TRACKING_WARNING_DELAY_MS = 1_000;

export const TRACKING_SAVED_TITLE = "Tracking updated successfully";
export const TRACKING_WARNING_TITLE = "Tracking information incomplete";
export const TRACKING_ERROR_TITLE = "Error updating tracking";

export function trackingSuccessDescription(res: TrackingUpdateResponse, timeZone?: string): string {
  if (res.trackingInfo?.delivered) {
    return "Order marked as delivered based on tracking information.";
  }
  if (res.order.status === "Shipped") {
    const expected = res.trackingInfo?.expectedDelivery;
    if (expected && toDate(expected)) {
      return `Order marked as shipped. Expected delivery: ${displayDay(expected, timeZone)}`;
    }
    return "Order marked as shipped with tracking information updated.";
  }
  return "Tracking information has been saved.";
}

export function trackingErrorDescription(message: string | null, details?: unknown): string {
  const m = (message ?? "").toLowerCase();
  if (m.includes("not found")) return "Order not found. Please refresh the page.";
  if (m.includes("not authorized")) return "You don't have permission to update this order.";
  if (details !== undefined && details !== null && details !== "") {
    const text = typeof details === "string" ? details : JSON.stringify(details);
    return `Update failed: ${text}`;
  }
  return "Failed to save tracking information. Please try again.";
}
