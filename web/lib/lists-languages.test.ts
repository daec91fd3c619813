/**
 * The dashboard's, the orders list's and the order cards' helpers in another language: a German or
 * Japanese reader gets their own words, plurals and number formats from the same functions that
 * give an English reader the spec's texts (those are asserted by each helper's own test).
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { Order } from "../../src/contract/orders.ts";
import type { UpdateAllTrackingResponse } from "../../src/contract/tracking.ts";
import { setLanguage } from "../i18n/index.ts";
import { deliveryAge, deliveryInfo } from "./delivery.ts";
import { ageText, formatBytes, formatDateOnly, formatRelativeTime } from "./format.ts";
import { reviewDateText } from "./order-days.ts";
import {
  carrierLabel,
  filterOrderLabel,
  sortLabel,
  statusLabel,
  statusSubtitle,
} from "./order-status.ts";
import { showingText } from "./pagination.ts";
import { trackingErrorDescription, trackingSuccessDescription } from "./tracking-save-toasts.ts";
import { preferencesProblem, updateAllToast, updateOrderToast } from "./tracking-toasts.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");
const DAY = 24 * 3_600_000;
const before = (ms: number) => new Date(NOW.getTime() - ms);

// Every other test reads English (test/setup.ts): put it back after each one here.
afterEach(() => setLanguage("en"));

const summary = (over: Partial<UpdateAllTrackingResponse>): UpdateAllTrackingResponse => ({
  deliveredOrders: 0,
  totalProcessed: 0,
  successfulUpdates: 0,
  message: "",
  messageParts: [],
  ...over,
});

const order = (over: Partial<Order>): Order => ({ ...({} as Order), ...over });

describe("a German reader", () => {
  test("gets German ages and relative times, with German plurals", async () => {
    await setLanguage("de");
    expect(formatRelativeTime(NOW, NOW)).toBe("Gerade eben");
    expect(formatRelativeTime(before(5 * 60_000), NOW)).toBe("vor 5 Min.");
    expect(formatRelativeTime(before(3 * 3_600_000), NOW)).toBe("vor 3 Std.");
    expect(formatRelativeTime(null, NOW)).toBe("Nie");
    expect(ageText(NOW, NOW)).toBe("Heute");
    expect(ageText(before(1 * DAY), NOW)).toBe("vor 1 Tag");
    expect(ageText(before(3 * DAY), NOW)).toBe("vor 3 Tagen");
    expect(ageText(before(14 * DAY), NOW)).toBe("vor 2 Wochen");
    expect(ageText(before(65 * DAY), NOW)).toBe("vor 2 Monaten");
    expect(formatBytes(1536)).toBe("1,5 KB");
  });

  test("gets German statuses, card lines and the list's words", async () => {
    await setLanguage("de");
    expect(statusLabel("Review Submitted")).toBe("Rezension eingereicht");
    expect(statusSubtitle("Shipped")).toBe("Unterwegs");
    expect(sortLabel("newest")).toBe("Neueste zuerst");
    expect(carrierLabel("OTHER")).toBe("Andere");
    expect(carrierLabel("DHL")).toBe("DHL");
    expect(filterOrderLabel("Shipped")).toBe("Früheste Ankunft zuerst");
    expect(showingText(2, 10, 45)).toBe("11–20 von 45 Ergebnissen");
    expect(deliveryAge(before(1 * DAY), NOW)?.text).toBe("1 Tag seit Zustellung");
    expect(deliveryAge(before(16 * DAY), NOW)?.text).toBe("16 Tage seit Zustellung");
    expect(deliveryAge(NOW, NOW)?.text).toBe("Heute zugestellt");
    expect(
      deliveryInfo(
        { expecteddeliverydate: "2026-11-22", expecteddeliverydatetext: null },
        NOW,
        "UTC",
      ).text,
    ).toBe("Morgen");
    expect(
      reviewDateText(order({ status: "Review Approved", datereviewapproved: "2026-12-24" }), "UTC"),
    ).toBe("Freigegeben am 24. Dez. 2026");
  });

  test("gets German tracking toasts; counts are written the German way", async () => {
    await setLanguage("de");
    expect(
      updateAllToast(summary({ deliveredOrders: 1, totalProcessed: 3, successfulUpdates: 2 })),
    ).toEqual({
      title: "Sendungen aktualisiert!",
      description: "1 Bestellung als zugestellt markiert. Geprüft: 3, erfolgreich: 2.",
      variant: "success",
    });
    expect(
      updateAllToast(
        summary({ deliveredOrders: 2000, totalProcessed: 2000, successfulUpdates: 2000 }),
      ).description,
    ).toStartWith("2.000 Bestellungen als zugestellt markiert.");
    expect(updateOrderToast({ delivered: true } as never).description).toBe(
      "Status auf „Erhalten“ geändert.",
    );
    expect(preferencesProblem("", "09:00")).toBe("Bitte eine Zeitzone wählen");
    expect(trackingErrorDescription("Order not found")).toBe(
      "Bestellung nicht gefunden. Bitte Seite neu laden.",
    );
    expect(
      trackingSuccessDescription(
        {
          order: order({ status: "Shipped" }),
          trackingInfo: { expectedDelivery: "2026-12-24" },
        } as never,
        "UTC",
      ),
    ).toBe("Bestellung als versandt markiert. Voraussichtliche Zustellung: 24. Dez. 2026");
  });
});

describe("a Japanese reader", () => {
  test("gets Japanese ages and times, one form for every count", async () => {
    await setLanguage("ja");
    expect(formatRelativeTime(NOW, NOW)).toBe("たった今");
    expect(formatRelativeTime(before(5 * 60_000), NOW)).toBe("5分前");
    expect(ageText(before(1 * DAY), NOW)).toBe("1日前");
    expect(ageText(before(3 * DAY), NOW)).toBe("3日前");
    expect(ageText(before(65 * DAY), NOW)).toBe("2か月前");
    expect(formatDateOnly("2026-12-24T12:00:00Z", "UTC")).toBe("2026年12月24日");
  });

  test("gets Japanese statuses, card lines, the list's words and toasts", async () => {
    await setLanguage("ja");
    expect(statusLabel("Received")).toBe("受取済み");
    expect(statusLabel("Review Rejected")).toBe("レビュー却下");
    expect(statusSubtitle("Received")).toBe("レビュー待ち");
    expect(showingText(1, 10, 3)).toBe("3件中 1〜3件");
    expect(deliveryAge(before(16 * DAY), NOW)?.text).toBe("配達から16日");
    expect(
      updateAllToast(summary({ deliveredOrders: 2, totalProcessed: 5, successfulUpdates: 4 }))
        .description,
    ).toBe("2件の注文を配達済みにしました。処理 5件、成功 4件。");
  });
});

test("English is back for the other tests", () => {
  expect(ageText(before(3 * DAY), NOW)).toBe("3 days ago");
  expect(statusLabel("Review Submitted")).toBe("Review Submitted");
  expect(carrierLabel("OTHER")).toBe("Other");
});
