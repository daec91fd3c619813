/**
 * The toasts of saving a tracking number (docs/messages.md), pure. Apart from tracking-toasts.ts
 * (the look-up toasts, loaded on demand) because the save hook lives in the first screen's bundle.
 */
import type { TrackingUpdateResponse } from "../../src/contract/orders.ts";
import { translate } from "../i18n/index.ts";
import { toDate } from "./format.ts";
import { displayDay } from "./order-days.ts";

export const TRACKING_WARNING_DELAY_MS = 1_000;

/** The toasts' titles, in the reader's language. */
export const trackingSavedTitle = () => translate("tracking.saved");
export const trackingWarningTitle = () => translate("tracking.incomplete");
export const trackingErrorTitle = () => translate("tracking.saveError");

export function trackingSuccessDescription(res: TrackingUpdateResponse, timeZone?: string): string {
  if (res.trackingInfo?.delivered) {
    return translate("tracking.savedDelivered");
  }
  if (res.order.status === "Shipped") {
    const expected = res.trackingInfo?.expectedDelivery;
    if (expected && toDate(expected)) {
      return translate("tracking.savedShippedExpected", { date: displayDay(expected, timeZone) });
    }
    return translate("tracking.savedShipped");
  }
  return translate("tracking.savedInfo");
}

export function trackingErrorDescription(message: string | null, details?: unknown): string {
  const m = (message ?? "").toLowerCase();
  if (m.includes("not found")) return translate("tracking.saveNotFound");
  if (m.includes("not authorized")) return translate("tracking.saveNotAllowed");
  if (details !== undefined && details !== null && details !== "") {
    const text = typeof details === "string" ? details : JSON.stringify(details);
    return translate("tracking.saveFailedDetails", { details: text });
  }
  return translate("tracking.saveFailed");
}
