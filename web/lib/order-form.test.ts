/** The edit form (values, request bodies, changed fields, tracking number rules) and its save toasts. */
import { describe, expect, test } from "bun:test";
import { PRODUCT_IMAGE_MESSAGE } from "../../src/contract/constants.ts";
import type { Order, TrackingUpdateResponse } from "../../src/contract/orders.ts";
import { aDeskLamp as order } from "../../test/fixtures/order.ts";
import { shouldDetectCarrier } from "./carrier-detection.ts";
import {
  changedFields,
  emptyOrderForm,
  formToPayload,
  isTrackingOnlyChange,
  type OrderForm,
  orderToForm,
  withDetectedCarrier,
  withTrackingNumber,
} from "./order-form.ts";
import { validateOrderForm } from "./order-validation.ts";
import { trackingErrorDescription, trackingSuccessDescription } from "./tracking-save-toasts.ts";

describe("tracking toasts", () => {
  const res = (over: Partial<TrackingUpdateResponse>, status: Order["status"] = "Shipped") =>
    ({ order: order({ status }), trackingInfo: null, ...over }) as TrackingUpdateResponse;
  test("the four success descriptions", () => {
    expect(
      trackingSuccessDescription(
        res({ trackingInfo: { delivered: true, expectedDelivery: null } }, "Received"),
      ),
    ).toBe("Order marked as delivered based on tracking information.");
    expect(
      trackingSuccessDescription(
        res({ trackingInfo: { delivered: false, expectedDelivery: "2026-11-24" } }),
        "UTC",
      ),
    ).toBe("Order marked as shipped. Expected delivery: Nov 24, 2026");
    expect(trackingSuccessDescription(res({}))).toBe(
      "Order marked as shipped with tracking information updated.",
    );
    expect(trackingSuccessDescription(res({}, "Ordered"))).toBe(
      "Tracking information has been saved.",
    );
  });
  test("the failure descriptions", () => {
    expect(trackingErrorDescription("Order not found")).toBe(
      "Order not found. Please refresh the page.",
    );
    expect(trackingErrorDescription("You are not authorized to do that")).toBe(
      "You don't have permission to update this order.",
    );
    expect(trackingErrorDescription("Bad input", "carrier unknown")).toBe(
      "Update failed: carrier unknown",
    );
    expect(trackingErrorDescription("Bad input", { field: "carrier" })).toBe(
      'Update failed: {"field":"carrier"}',
    );
    expect(trackingErrorDescription(null)).toBe(
      "Failed to save tracking information. Please try again.",
    );
  });
});

describe("the edit form", () => {
  const valid = (): OrderForm => ({ ...emptyOrderForm(), productname: "Lamp", asin: "B0X" });
  test("required fields and URLs (docs/behaviour.md#validation messages)", () => {
    expect(validateOrderForm(emptyOrderForm())).toEqual({
      productname: "Product name is required",
      asin: "ASIN is required",
    });
    expect(validateOrderForm({ ...valid(), producturl: "not a url" })).toEqual({
      producturl: "Must be a valid URL",
    });
    expect(validateOrderForm({ ...valid(), producturl: "ftp://x.example/a" })).toEqual({
      producturl: "Must be a valid URL",
    });
    expect(validateOrderForm({ ...valid(), producturl: "https://www.amazon.com/dp/B0X" })).toEqual(
      {},
    );
    // Pages show pictures from Amazon's image servers only (their Content-Security-Policy).
    expect(
      validateOrderForm({ ...valid(), productimage: "https://m.media-amazon.com/images/I/a.jpg" }),
    ).toEqual({});
    expect(
      validateOrderForm({ ...valid(), productimage: "https://evil.example/media-amazon.com.jpg" }),
    ).toEqual({ productimage: PRODUCT_IMAGE_MESSAGE });
    expect(validateOrderForm({ ...valid(), productname: "   " }).productname).toBe(
      "Product name is required",
    );
  });
  test("rating 1-5 or empty, amounts, subject length", () => {
    expect(validateOrderForm({ ...valid(), rating: null })).toEqual({});
    expect(validateOrderForm({ ...valid(), rating: 5 })).toEqual({});
    expect(validateOrderForm({ ...valid(), rating: 0 }).rating).toBeDefined();
    expect(validateOrderForm({ ...valid(), rating: 9 }).rating).toBeDefined();
    expect(validateOrderForm({ ...valid(), estimatedretailvalue: "$1,299.99" })).toEqual({});
    expect(validateOrderForm({ ...valid(), estimatedretailvalue: "cheap" })).toEqual({
      estimatedretailvalue: "Estimated value must be an amount such as 24.99",
    });
    expect(validateOrderForm({ ...valid(), reviewsubject: "x".repeat(501) }).reviewsubject).toBe(
      "Review subject must be at most 500 characters",
    );
  });
  test("orderToForm shows dates as the user's day; changedFields sends only what changed", () => {
    const o = order({
      dateordered: "2026-11-01T03:00:00.000Z",
      expecteddeliverydate: "2026-11-24",
    });
    const original = orderToForm(o, "America/Chicago");
    expect(original.dateordered).toBe("2026-10-31");
    expect(original.expecteddeliverydate).toBe("2026-11-24");
    expect(original.productname).toBe("Desk Lamp");
    expect(original.carrier).toBe("");
    expect(changedFields(original, original)).toEqual({});
    expect(
      changedFields(original, { ...original, productname: " Desk Lamp 2 ", shiptoaddress: "  " }),
    ).toEqual({ productname: "Desk Lamp 2" });
    expect(changedFields(original, { ...original, amazonordernumber: "" })).toEqual({
      amazonordernumber: null,
    });
    expect(changedFields(original, { ...original, rating: 4 })).toEqual({ rating: 4 });
  });
  test("formToPayload sends every field, empty as null", () => {
    const p = formToPayload({ ...valid(), carrier: "UPS", trackingnumber: " 1Z " });
    expect(p.productname).toBe("Lamp");
    expect(p.trackingnumber).toBe("1Z");
    expect(p.carrier).toBe("UPS");
    expect(p.shiptoaddress).toBeNull();
    expect(p.status).toBe("Ordered");
    expect(p.rating).toBeNull();
  });
  test("only tracking changed (with the form's own status change) uses the tracking call", () => {
    const original = { ...valid(), status: "Ordered" as const };
    expect(isTrackingOnlyChange(original, { trackingnumber: "1Z", carrier: "UPS" })).toBe(true);
    expect(
      isTrackingOnlyChange(original, { trackingnumber: "1Z", carrier: "UPS", status: "Shipped" }),
    ).toBe(true);
    expect(isTrackingOnlyChange(original, { trackingnumber: "1Z", productname: "X" })).toBe(false);
    expect(isTrackingOnlyChange(original, { trackingnumber: "1Z", status: "Received" })).toBe(
      false,
    );
    expect(isTrackingOnlyChange(original, { status: "Shipped" })).toBe(false);
    const shipped = { ...valid(), status: "Shipped" as const, trackingnumber: "1Z" };
    expect(
      isTrackingOnlyChange(shipped, { trackingnumber: null, carrier: null, status: "Ordered" }),
    ).toBe(true);
  });
  test("typing and clearing the number, and what detection does", () => {
    const shipped: OrderForm = {
      ...valid(),
      status: "Shipped",
      trackingnumber: "1Z999",
      carrier: "UPS",
    };
    expect(withTrackingNumber(shipped, "")).toMatchObject({
      trackingnumber: "",
      carrier: "",
      status: "Ordered",
    });
    const received = { ...shipped, status: "Received" as const };
    expect(withTrackingNumber(received, " ").status).toBe("Received");
    expect(withTrackingNumber(shipped, "1Z9999").carrier).toBe("UPS");
    const ordered = { ...valid(), trackingnumber: "1Z999AA10123456784" };
    expect(withDetectedCarrier(ordered, "UPS")).toMatchObject({
      carrier: "UPS",
      status: "Shipped",
    });
    expect(withDetectedCarrier({ ...ordered, carrier: "FEDEX" }, null)).toMatchObject({
      carrier: "FEDEX",
      status: "Shipped",
    });
    expect(withDetectedCarrier({ ...ordered, status: "Received" }, "USPS").status).toBe("Received");
    expect(shouldDetectCarrier(" 1234567 ")).toBe(false);
    expect(shouldDetectCarrier(" 12345678 ")).toBe(true);
  });
});
