/**
 * The carrier-tracking toasts of docs/messages.md as pure functions: an API answer (or a failed call's
 * message) in, the toast's title, description and variant out. No React and no I/O, so every
 * wording is unit tested (tracking-toasts.test.ts). The tracking SAVE toasts (PUT …/tracking,
 * including the delayed 'Tracking information incomplete') are in tracking-save-toasts.ts: their
 * hook is part of the card's inline editor, this module is loaded with the look-ups.
 */

import { TRACKING_TIME_RE } from "../../src/contract/constants.ts";
import type {
  UpdateAllTrackingResponse,
  UpdateOrderTrackingResponse,
} from "../../src/contract/tracking.ts";
import { translate } from "../i18n/index.ts";
import { serverSentence, serverText } from "./server-text.ts";

export type ToastSpec = {
  title: string;
  description?: string;
  variant: "default" | "success" | "destructive";
};

/**
 * POST /api/tracking/update-all (the dashboard's Shipped refresh, Update All Tracking):
 * deliveries → 'Tracking Updated!' with the delivered count, processed and successful;
 * answers without deliveries → 'Tracking Updated Successfully!'; nothing looked up →
 * 'Tracking Update Completed' with the server's message or 'No updates were needed.'
 */
export function updateAllToast(res: UpdateAllTrackingResponse): ToastSpec {
  const message = serverText(res.messageParts, res.message ?? "").trim();
  if (res.deliveredOrders > 0) {
    return {
      title: translate("tracking.updatedAll"),
      description: translate("tracking.updatedAllDelivered", {
        count: res.deliveredOrders,
        processed: res.totalProcessed,
        successful: res.successfulUpdates,
      }),
      variant: "success",
    };
  }
  if (res.successfulUpdates > 0) {
    return {
      title: translate("tracking.updatedAllSuccess"),
      description:
        message ||
        translate("tracking.updatedAllNoDeliveries", {
          processed: res.totalProcessed,
          successful: res.successfulUpdates,
        }),
      variant: "success",
    };
  }
  return {
    title: translate("tracking.updateCompleted"),
    description: message || translate("tracking.noUpdatesNeeded"),
    variant: "default",
  };
}

/** Update-all failed: the server's message, else 'Please try again later.' */
export function updateAllErrorToast(serverMessage: string | null | undefined): ToastSpec {
  return {
    title: translate("tracking.updateAllFailed"),
    description: serverMessage?.trim() || translate("tracking.tryAgainLater"),
    variant: "destructive",
  };
}

/**
 * POST /api/tracking/update-order/{id} (Update Tracking on a card, dashboard or list):
 * delivered → 'Order delivered!' / "Order status updated to 'Received'."; otherwise
 * 'Tracking updated successfully!', with the server's warning (carrier not configured, number
 * unknown…) as the description when it sent one.
 */
export function updateOrderToast(res: UpdateOrderTrackingResponse): ToastSpec {
  if (res.delivered) {
    return {
      title: translate("tracking.orderDelivered"),
      description: translate("tracking.orderDeliveredDescription"),
      variant: "success",
    };
  }
  const warning = serverSentence(res.warningCode, res.warningValues, res.warning ?? "").trim();
  const title = translate("tracking.orderUpdated");
  return warning
    ? { title, description: warning, variant: "default" }
    : { title, variant: "success" };
}

/** POST /api/orders/{id}/tracking/update (Update Tracking in Edit Order) succeeded. */
export function orderRefreshToast(): ToastSpec {
  return {
    title: translate("tracking.refreshed"),
    description: translate("tracking.refreshedDescription"),
    variant: "success",
  };
}

/** A single order's refresh failed (Edit Order, and a card's Update Tracking). */
export function orderRefreshErrorToast(): ToastSpec {
  return {
    title: translate("tracking.updateFailed"),
    description: translate("tracking.updateFailedDescription"),
    variant: "destructive",
  };
}

/**
 * A card's Update Tracking failed. The spec gives no wording for it: the same title as Edit
 * Order's refresh, with the server's reason (carrier not set up, not answering, number unknown…)
 * when it sent one, since that tells the user what to do.
 */
export function updateOrderErrorToast(serverMessage: string | null | undefined): ToastSpec {
  const reason = serverMessage?.trim();
  return reason
    ? { title: translate("tracking.updateFailed"), description: reason, variant: "destructive" }
    : orderRefreshErrorToast();
}

/** POST /api/tracking/preferences succeeded. */
export function preferencesSavedToast(): ToastSpec {
  return { title: translate("tracking.preferencesSaved"), variant: "success" };
}

/** Saving the preferences failed: the server's message, else the spec's fallback. */
export function preferencesErrorToast(serverMessage: string | null | undefined): ToastSpec {
  return {
    title: serverMessage?.trim() || translate("tracking.preferencesFailed"),
    variant: "destructive",
  };
}

/* ---- The Shipment Tracking form (docs/behaviour.md#validation) ---- */

/** The client rules of the preferences form: the message to show, or null when valid. */
export function preferencesProblem(timezone: string, updateTime: string): string | null {
  if (timezone.trim() === "") return translate("tracking.selectTimezone");
  if (!TRACKING_TIME_RE.test(updateTime.trim())) return translate("tracking.selectUpdateTime");
  return null;
}
