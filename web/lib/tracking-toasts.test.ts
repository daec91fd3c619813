import { describe, expect, test } from "bun:test";
import type { Order } from "../../src/contract/orders.ts";
import type { UpdateAllTrackingResponse } from "../../src/contract/tracking.ts";
import {
  orderRefreshErrorToast,
  orderRefreshToast,
  preferencesErrorToast,
  preferencesProblem,
  preferencesSavedToast,
  updateAllErrorToast,
  updateAllToast,
  updateOrderErrorToast,
  updateOrderToast,
} from "./tracking-toasts.ts";

const summary = (over: Partial<UpdateAllTrackingResponse>): UpdateAllTrackingResponse => ({
  deliveredOrders: 0,
  totalProcessed: 0,
  successfulUpdates: 0,
  message: "",
  messageParts: [],
  ...over,
});

describe("update all (docs/messages.md)", () => {
  test("deliveries: 'Tracking Updated!' with the delivered, processed and successful counts", () => {
    expect(
      updateAllToast(
        summary({ deliveredOrders: 2, totalProcessed: 5, successfulUpdates: 4, message: "x" }),
      ),
    ).toEqual({
      title: "Tracking Updated!",
      description: "2 orders marked as delivered. Processed 5, successful 4.",
      variant: "success",
    });
    expect(
      updateAllToast(summary({ deliveredOrders: 1, totalProcessed: 1, successfulUpdates: 1 }))
        .description,
    ).toBe("1 order marked as delivered. Processed 1, successful 1.");
  });

  test("answers without deliveries: 'Tracking Updated Successfully!' with the server's message", () => {
    expect(
      updateAllToast(
        summary({ totalProcessed: 3, successfulUpdates: 3, message: "3 orders still in transit." }),
      ),
    ).toEqual({
      title: "Tracking Updated Successfully!",
      description: "3 orders still in transit.",
      variant: "success",
    });
    expect(
      updateAllToast(summary({ totalProcessed: 3, successfulUpdates: 2, message: " " }))
        .description,
    ).toBe("Processed 3, successful 2. No deliveries yet.");
  });

  test("nothing answered: 'Tracking Update Completed' with the message or 'No updates were needed.'", () => {
    expect(updateAllToast(summary({}))).toEqual({
      title: "Tracking Update Completed",
      description: "No updates were needed.",
      variant: "default",
    });
    const skipped = summary({
      totalProcessed: 2,
      message: "UPS is not configured on this server; 2 orders were skipped.",
    });
    expect(updateAllToast(skipped)).toEqual({
      title: "Tracking Update Completed",
      description: "UPS is not configured on this server; 2 orders were skipped.",
      variant: "default",
    });
  });

  test("failure: 'Failed to update tracking' with the message or 'Please try again later.'", () => {
    expect(updateAllErrorToast("Too many requests")).toEqual({
      title: "Failed to update tracking",
      description: "Too many requests",
      variant: "destructive",
    });
    expect(updateAllErrorToast(null).description).toBe("Please try again later.");
    expect(updateAllErrorToast("  ").description).toBe("Please try again later.");
  });
});

describe("one order (docs/messages.md)", () => {
  const order = {} as Order;
  test("delivered: 'Order delivered!' / Order status updated to 'Received'.", () => {
    expect(updateOrderToast({ delivered: true, order })).toEqual({
      title: "Order delivered!",
      description: "Order status updated to 'Received'.",
      variant: "success",
    });
  });

  test("not delivered: 'Tracking updated successfully!', with the server's warning if any", () => {
    expect(updateOrderToast({ delivered: false, order })).toEqual({
      title: "Tracking updated successfully!",
      variant: "success",
    });
    expect(
      updateOrderToast({ delivered: false, order, warning: "FedEx is not configured." }),
    ).toEqual({
      title: "Tracking updated successfully!",
      description: "FedEx is not configured.",
      variant: "default",
    });
  });

  test("a card's refresh failed: 'Update failed' with the server's reason, else the spec's text", () => {
    expect(updateOrderErrorToast("UPS did not answer in time.")).toEqual({
      title: "Update failed",
      description: "UPS did not answer in time.",
      variant: "destructive",
    });
    expect(updateOrderErrorToast(null)).toEqual(orderRefreshErrorToast());
  });

  test("Edit Order's refresh: 'Tracking updated' or 'Update failed'", () => {
    expect(orderRefreshToast()).toEqual({
      title: "Tracking updated",
      description: "Order tracking information has been updated.",
      variant: "success",
    });
    expect(orderRefreshErrorToast()).toEqual({
      title: "Update failed",
      description: "Failed to update tracking information.",
      variant: "destructive",
    });
  });
});

describe("preferences (docs/behaviour.md#validation, docs/messages.md)", () => {
  test("saved: 'Preferences Updated'; failed: the server's message or the fallback", () => {
    expect(preferencesSavedToast()).toEqual({ title: "Preferences Updated", variant: "success" });
    expect(preferencesErrorToast("Please select a timezone").title).toBe(
      "Please select a timezone",
    );
    expect(preferencesErrorToast(null)).toEqual({
      title: "Failed to update tracking preferences",
      variant: "destructive",
    });
  });

  test("form rules: a zone is required and the time must be 24-hour HH:MM", () => {
    expect(preferencesProblem("America/Chicago", "09:00")).toBeNull();
    expect(preferencesProblem("Europe/Paris", "23:30")).toBeNull();
    expect(preferencesProblem("", "09:00")).toBe("Please select a timezone");
    expect(preferencesProblem("America/Chicago", "9:00")).toBe("Please select a valid update time");
    expect(preferencesProblem("America/Chicago", "24:00")).toBe(
      "Please select a valid update time",
    );
    expect(preferencesProblem("America/Chicago", "")).toBe("Please select a valid update time");
  });
});
