/** Carrier tracking links, the review's word count, pagination and the order list's address. */
import { describe, expect, test } from "bun:test";
import { CARRIERS } from "../../src/contract/constants.ts";
import { editOrderPath, fromLabel, safeFrom } from "./order-links.ts";
import {
  DEFAULT_VIEW,
  hasOwnOrdering,
  listViewPath,
  listViewSearch,
  ordersApiPath,
  parseListView,
} from "./order-list-view.ts";
import { pageItems, showingText, totalPages } from "./pagination.ts";
import { reviewUrl } from "./review-status.ts";
import { wordBand, wordCount } from "./review-text.ts";
import { trackingUrl } from "./tracking-links.ts";

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
