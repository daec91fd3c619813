import { describe, expect, test } from "bun:test";
import { CARRIERS, PRODUCT_IMAGE_MESSAGE } from "../../src/contract/constants.ts";
import type { Order, TrackingUpdateResponse } from "../../src/contract/orders.ts";
import { anOrder } from "../../test/fixtures/order.ts";
import { shouldDetectCarrier } from "./carrier-detection.ts";
import { deliveryAge, deliveryInfo, isJustDelivered } from "./delivery.ts";
import { dayDiff, dayKey, displayDay, reviewDateText } from "./order-days.ts";
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
import { editOrderPath, fromLabel, safeFrom } from "./order-links.ts";
import {
  DEFAULT_VIEW,
  hasOwnOrdering,
  listViewPath,
  listViewSearch,
  ordersApiPath,
  parseListView,
} from "./order-list-view.ts";
import { validateOrderForm } from "./order-validation.ts";
import { pageItems, showingText, totalPages } from "./pagination.ts";
import { reviewStatusLine, reviewUrl } from "./review-status.ts";
import { wordBand, wordCount } from "./review-text.ts";
import { trackingUrl } from "./tracking-links.ts";
import { trackingErrorDescription, trackingSuccessDescription } from "./tracking-save-toasts.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Fixed "now": 21 Nov 2026, 12:00 UTC (06:00 in Chicago, 21:00 in Tokyo). */
const NOW = new Date("2026-11-21T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

const order = (over: Partial<Order> = {}): Order =>
  anOrder({
    orderid: 7,
    amazonordernumber: "112-1234567-1234567",
    productname: "Desk Lamp",
    asin: "B0TEST1234",
    estimatedretailvalue: "24.99",
    dateordered: "2026-11-01T15:00:00.000Z",
    updatedate: "2026-11-01T15:00:00.000Z",
    createdate: "2026-11-01T15:00:00.000Z",
    ...over,
  });

describe("trackingUrl", () => {
  test("each carrier's public page, the number encoded", () => {
    expect(trackingUrl("UPS", "1Z999AA10123456784")).toBe(
      "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    );
    expect(trackingUrl("USPS", "9400 1000")).toBe(
      "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201000",
    );
    expect(trackingUrl("FEDEX", "123456789012")).toBe(
      "https://www.fedex.com/fedextrack/?trknbr=123456789012",
    );
    expect(trackingUrl("OTHER", "LX123")).toBe("https://parcelsapp.com/en/tracking/LX123");
  });
  test("Amazon: public tracker for TBA numbers, the order's progress tracker otherwise", () => {
    expect(trackingUrl("AMAZON", "TBA123456789012", "112-1")).toBe(
      "https://track.amazon.com/tracking/TBA123456789012",
    );
    expect(trackingUrl("AMAZON", "XYZ987", "112-1234567-1234567")).toBe(
      "https://www.amazon.com/progress-tracker/package?itemId=&orderId=112-1234567-1234567",
    );
    expect(trackingUrl("AMAZON", "XYZ987")).toBe("https://track.amazon.com/tracking/XYZ987");
    // The order's own marketplace's tracker.
    expect(
      trackingUrl("AMAZON", "XYZ987", "202-1234567-1234567", "https://www.amazon.co.uk/dp/B0X"),
    ).toBe("https://www.amazon.co.uk/progress-tracker/package?itemId=&orderId=202-1234567-1234567");
    expect(
      trackingUrl("AMAZON", "XYZ987", "249-1234567-1234567", "https://evil.example/amazon.co.jp/"),
    ).toBe("https://www.amazon.com/progress-tracker/package?itemId=&orderId=249-1234567-1234567");
  });
  test("every other marketplace carrier opens its own page on the https site, number encoded", () => {
    for (const c of CARRIERS) {
      if (["UPS", "USPS", "FEDEX", "AMAZON", "OTHER"].includes(c)) continue;
      const url = trackingUrl(c, "AB 12/3");
      expect(url).not.toBeNull();
      expect(url?.startsWith("https://")).toBe(true);
      expect(url).not.toContain("parcelsapp");
      expect(url).toContain("AB%2012%2F3");
    }
    expect(trackingUrl("ROYALMAIL", "RB123456785GB")).toBe(
      "https://www.royalmail.com/track-your-item#/tracking-results/RB123456785GB",
    );
    expect(trackingUrl("YAMATO", "123456789012")).toBe(
      "https://toi.kuronekoyamato.co.jp/cgi-bin/tneko?number00=1&number01=123456789012",
    );
    expect(trackingUrl("LAPOSTE", "6A12345678901")).toBe(
      "https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901",
    );
  });
  test("no carrier uses the multi-carrier tracker; no number gives no link", () => {
    expect(trackingUrl(null, " ABC ")).toBe("https://parcelsapp.com/en/tracking/ABC");
    expect(trackingUrl("UPS", "")).toBeNull();
    expect(trackingUrl("UPS", "   ")).toBeNull();
    expect(trackingUrl("UPS", null)).toBeNull();
  });
  test("review link", () => {
    expect(reviewUrl("R1ABC")).toBe("https://www.amazon.com/review/R1ABC");
    expect(reviewUrl(" ")).toBeNull();
  });
});

describe("days in the user's zone", () => {
  test("dayKey keeps a bare day and converts an instant into the zone", () => {
    expect(dayKey("2026-11-21")).toBe("2026-11-21");
    expect(dayKey("2026-11-21T03:00:00Z", "America/Chicago")).toBe("2026-11-20");
    expect(dayKey("2026-11-21T20:00:00Z", "Asia/Tokyo")).toBe("2026-11-22");
    expect(dayKey(null)).toBeNull();
    expect(dayKey("nonsense")).toBeNull();
  });
  test("dayDiff crosses months and years", () => {
    expect(dayDiff("2026-12-31", "2027-01-01")).toBe(1);
    expect(dayDiff("2026-03-01", "2026-02-28")).toBe(-1);
  });
  test("displayDay never shifts a bare day", () => {
    expect(displayDay("2026-11-21", "Pacific/Honolulu")).toBe("Nov 21, 2026");
    expect(displayDay("2026-11-21T03:00:00Z", "America/Chicago")).toBe("Nov 20, 2026");
    expect(displayDay(null)).toBe("Never");
  });
});

describe("deliveryInfo (colour of the expected delivery)", () => {
  const at = (d: string | null, text: string | null = null, tz = "UTC") =>
    deliveryInfo({ expecteddeliverydate: d, expecteddeliverydatetext: text }, NOW, tz);
  test("today green, tomorrow blue, later purple", () => {
    expect(at("2026-11-21")).toEqual({ tone: "today", text: "Today" });
    expect(at("2026-11-22")).toEqual({ tone: "tomorrow", text: "Tomorrow" });
    expect(at("2026-11-25")).toEqual({ tone: "future", text: "Nov 25, 2026" });
  });
  test("a past day has no colour", () => {
    expect(at("2026-11-19")).toEqual({ tone: "none", text: "Nov 19, 2026" });
  });
  test("'today' is the user's today", () => {
    // 12:00 UTC on the 21st is already 01:00 on the 22nd in Auckland.
    expect(at("2026-11-22", null, "Pacific/Auckland").tone).toBe("today");
    expect(at("2026-11-21", null, "Pacific/Auckland").tone).toBe("none");
  });
  test("text only is the orange estimate; nothing is none", () => {
    expect(at(null, "Arriving Tuesday")).toEqual({ tone: "estimated", text: "Arriving Tuesday" });
    expect(at(null, "  ")).toEqual({ tone: "none", text: null });
    expect(at(null)).toEqual({ tone: "none", text: null });
  });
  test("a parsed day beats its text", () => {
    expect(at("2026-11-22", "Arriving tomorrow").tone).toBe("tomorrow");
  });
});

describe("Just Delivered", () => {
  test("a Received order delivered within the last 24 hours", () => {
    expect(isJustDelivered({ status: "Received", datedelivered: ago(HOUR) }, NOW)).toBe(true);
    expect(isJustDelivered({ status: "Received", datedelivered: ago(DAY - 1000) }, NOW)).toBe(true);
    expect(isJustDelivered({ status: "Received", datedelivered: ago(DAY) }, NOW)).toBe(false);
    expect(isJustDelivered({ status: "Received", datedelivered: null }, NOW)).toBe(false);
  });
  test("only Received orders", () => {
    expect(isJustDelivered({ status: "Review Submitted", datedelivered: ago(HOUR) }, NOW)).toBe(
      false,
    );
  });
  test("a delivery time in the future is not 'just delivered'", () => {
    expect(isJustDelivered({ status: "Received", datedelivered: ago(-HOUR) }, NOW)).toBe(false);
  });
});

describe("deliveryAge (Received filter)", () => {
  test("days since delivery with the received urgency (14/30)", () => {
    expect(deliveryAge(ago(2 * HOUR), NOW)).toEqual({ text: "Delivered today", urgency: "normal" });
    expect(deliveryAge(ago(DAY), NOW)).toEqual({ text: "1 day since delivery", urgency: "normal" });
    expect(deliveryAge(ago(13 * DAY), NOW)?.urgency).toBe("normal");
    expect(deliveryAge(ago(14 * DAY), NOW)).toEqual({
      text: "14 days since delivery",
      urgency: "warning",
    });
    expect(deliveryAge(ago(30 * DAY), NOW)?.urgency).toBe("critical");
    expect(deliveryAge(null, NOW)).toBeNull();
  });
});

describe("word count and its colour", () => {
  test("counts words separated by any whitespace", () => {
    expect(wordCount("")).toBe(0);
    expect(wordCount(null)).toBe(0);
    expect(wordCount("  one\ttwo\n\nthree  ")).toBe(3);
  });
  test("bands of 15 and 30 percent around the target (default 150)", () => {
    expect(wordBand(150)).toBe("good");
    expect(wordBand(128)).toBe("good"); // 14.7 % short
    expect(wordBand(172)).toBe("good"); // 14.7 % over
    expect(wordBand(127)).toBe("fair"); // 15.3 % short
    expect(wordBand(105)).toBe("fair"); // exactly 30 %
    expect(wordBand(195)).toBe("fair");
    expect(wordBand(104)).toBe("poor");
    expect(wordBand(0)).toBe("poor");
    expect(wordBand(300)).toBe("poor");
  });
  test("a different target", () => {
    expect(wordBand(100, 100)).toBe("good");
    expect(wordBand(80, 100)).toBe("fair");
    expect(wordBand(60, 100)).toBe("poor");
  });
});

describe("pagination", () => {
  test("few pages: all of them", () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageItems(1, 0)).toEqual([]);
  });
  test("ellipses around the current page ±2", () => {
    expect(pageItems(1, 10)).toEqual([1, 2, 3, "end-ellipsis", 10]);
    expect(pageItems(5, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, "end-ellipsis", 10]);
    expect(pageItems(6, 12)).toEqual([1, "start-ellipsis", 4, 5, 6, 7, 8, "end-ellipsis", 12]);
    expect(pageItems(10, 10)).toEqual([1, "start-ellipsis", 8, 9, 10]);
  });
  test("a gap of one page shows that page, not an ellipsis", () => {
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, 6, "end-ellipsis", 10]);
    expect(pageItems(7, 10)).toEqual([1, "start-ellipsis", 5, 6, 7, 8, 9, 10]);
  });
  test("an out-of-range page is clamped", () => {
    expect(pageItems(99, 3)).toEqual([1, 2, 3]);
  });
  test("'Showing X to Y of Z results' and the page count", () => {
    expect(showingText(1, 10, 0)).toBe("Showing 0 to 0 of 0 results");
    expect(showingText(1, 10, 7)).toBe("Showing 1 to 7 of 7 results");
    expect(showingText(3, 10, 25)).toBe("Showing 21 to 25 of 25 results");
    expect(totalPages(0, 10)).toBe(1);
    expect(totalPages(25, 10)).toBe(3);
    expect(totalPages(100, 100)).toBe(1);
  });
});

describe("review status line", () => {
  const tz = "UTC";
  test("Review Submitted: date and age with the 7/21 urgency", () => {
    const o = order({ status: "Review Submitted", datereviewsubmitted: ago(8 * DAY) });
    expect(reviewStatusLine(o, NOW, tz)).toEqual({
      label: "Submitted",
      detail: "Nov 13, 2026 · 1 week ago",
      urgency: "warning",
    });
    expect(reviewStatusLine({ ...o, datereviewsubmitted: ago(21 * DAY) }, NOW, tz).urgency).toBe(
      "critical",
    );
  });
  test("Review Approved: the date only", () => {
    const o = order({ status: "Review Approved", datereviewapproved: ago(40 * DAY) });
    expect(reviewStatusLine(o, NOW, tz)).toEqual({
      label: "Approved",
      detail: "Oct 12, 2026",
      urgency: "normal",
    });
  });
  test("Review Rejected: date with the 3/7 urgency", () => {
    const o = order({ status: "Review Rejected", datereviewrejected: ago(3 * DAY) });
    expect(reviewStatusLine(o, NOW, tz)).toEqual({
      label: "Rejected",
      detail: "Nov 18, 2026 · 3 days ago",
      urgency: "warning",
    });
  });
  test("Received: Not Submitted with the received date and 14/30 urgency", () => {
    const o = order({ status: "Received", datedelivered: ago(31 * DAY) });
    expect(reviewStatusLine(o, NOW, tz)).toEqual({
      label: "Not Submitted",
      detail: "Received Oct 21, 2026 · 1 month ago",
      urgency: "critical",
    });
  });
  test("other statuses: Not Submitted with the status", () => {
    expect(reviewStatusLine(order({ status: "Shipped" }), NOW, tz)).toEqual({
      label: "Not Submitted",
      detail: "Status: Shipped",
      urgency: "normal",
    });
  });
  test("a missing date leaves the detail out", () => {
    expect(reviewStatusLine(order({ status: "Review Approved" }), NOW, tz)).toEqual({
      label: "Approved",
      detail: null,
      urgency: "normal",
    });
  });
  test("the card's review date", () => {
    expect(
      reviewDateText(order({ status: "Review Approved", datereviewapproved: "2026-11-02" }), tz),
    ).toBe("Approved Nov 2, 2026");
    expect(reviewDateText(order({ status: "Received" }), tz)).toBeNull();
  });
});

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

describe("the list's address", () => {
  test("defaults", () => {
    expect(parseListView("")).toEqual(DEFAULT_VIEW);
    expect(parseListView("status=bogus&sort=zzz&page=-3&size=7")).toEqual(DEFAULT_VIEW);
  });
  test("round trip", () => {
    const view = {
      status: "Review Submitted" as const,
      q: "lamp",
      sort: "value-desc" as const,
      page: 3,
      size: 25,
    };
    const search = listViewSearch(view);
    expect(search).toBe("status=Review+Submitted&q=lamp&sort=value-desc&page=3&size=25");
    expect(parseListView(search)).toEqual(view);
    expect(listViewPath(DEFAULT_VIEW)).toBe("/orders?status=all");
  });
  test("the API path: sort only when chosen, paging as limit and offset", () => {
    expect(ordersApiPath({ ...DEFAULT_VIEW, status: "Received" })).toBe(
      "/api/orders?status=Received&limit=10&offset=0",
    );
    expect(ordersApiPath({ status: "all", q: " cup ", sort: "oldest", page: 3, size: 25 })).toBe(
      "/api/orders?status=all&q=cup&sort=oldest&limit=25&offset=50",
    );
  });
  test("which filters have their own ordering", () => {
    expect(hasOwnOrdering("Received")).toBe(true);
    expect(hasOwnOrdering("Shipped")).toBe(true);
    expect(hasOwnOrdering("Review Approved")).toBe(true);
    expect(hasOwnOrdering("Ordered")).toBe(false);
    expect(hasOwnOrdering("Canceled")).toBe(false);
    expect(hasOwnOrdering("all")).toBe(false);
  });
  test("from: only paths on this site", () => {
    expect(safeFrom("/orders?status=Shipped&page=2")).toBe("/orders?status=Shipped&page=2");
    expect(safeFrom("/")).toBe("/");
    expect(safeFrom("//evil.example")).toBe("/orders?status=all");
    expect(safeFrom("https://evil.example")).toBe("/orders?status=all");
    expect(safeFrom(null, "/")).toBe("/");
    expect(fromLabel("/")).toBe("Dashboard");
    expect(fromLabel("/?x=1")).toBe("Dashboard");
    expect(fromLabel("/orders?status=all")).toBe("Order List");
    expect(fromLabel("/vine")).toBe("Vine");
    expect(editOrderPath(7, "/orders?status=Received", "review")).toBe(
      "/orders/7/edit?from=%2Forders%3Fstatus%3DReceived&section=review",
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
