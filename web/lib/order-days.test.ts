/** Days in the user's zone, the expected delivery's colour, delivery ages and the review status line. */
import { describe, expect, test } from "bun:test";
import { aDeskLamp as order } from "../../test/fixtures/order.ts";
import { deliveryAge, deliveryInfo, isJustDelivered } from "./delivery.ts";
import { dayDiff, dayKey, displayDay, reviewDateText } from "./order-days.ts";
import { reviewStatusLine } from "./review-status.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Fixed "now": 21 Nov 2026, 12:00 UTC (06:00 in Chicago, 21:00 in Tokyo). */
const NOW = new Date("2026-11-21T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

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
