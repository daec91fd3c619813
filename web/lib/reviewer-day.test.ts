/**
 * A reviewer's day, the pure helpers on the web side: typed amounts, the order's Amazon links,
 * the delivery date a status fills, which failed uploads can be retried and the kept review
 * drafts.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { orderMarketplace, usualDeliveredDay } from "../../src/contract/marketplaces.ts";
import { canRetryUpload } from "../pages/edit-order/media/media-rules.ts";
import { productPageUrl, writeReviewUrl } from "./amazon-links.ts";
import { parseAmount } from "./amount.ts";
import { emptyOrderForm, formToPayload, withStatus } from "./order-form.ts";
import { validateOrderForm } from "./order-validation.ts";
import { reviewUrl } from "./review-status.ts";

describe("typed amounts", () => {
  test.each([
    ["129,99", "EUR", "en-US", "129.99"],
    ["129,99", "USD", "de-DE", "129.99"],
    ["1.234,50", "EUR", "en-US", "1234.50"],
    ["1 234,5", "EUR", "fr-FR", "1234.50"],
    ["1,234.50", "EUR", "de-DE", "1234.50"],
    ["129.99", "EUR", "de-DE", "129.99"],
    ["$24.99", "USD", "en-US", "24.99"],
    ["4,990", "JPY", "ja-JP", "4990"],
    ["4990.00", "JPY", "en-US", "4990"],
    ["", "USD", "en-US", ""],
  ])("%p in %s with %s is %p", (text, currency, locale, value) => {
    expect(parseAmount(text, currency, locale)).toEqual({ ok: true, value });
  });

  test.each([
    ["129,99", "USD", "en-US", "Estimated value must be an amount such as 24.99"],
    ["24.999", "USD", "en-US", "Estimated value must be an amount such as 24.99"],
    ["about ten", "USD", "en-US", "Estimated value must be an amount such as 24.99"],
    [
      "4990.5",
      "JPY",
      "en-US",
      "Amounts in JPY have no decimals: write a whole number such as 4990",
    ],
    [
      "4990,5",
      "JPY",
      "de-DE",
      "Amounts in JPY have no decimals: write a whole number such as 4990",
    ],
  ])("%p in %s with %s is refused", (text, currency, locale, error) => {
    expect(parseAmount(text, currency, locale)).toEqual({ ok: false, error });
  });

  test("the form sends what the API reads, and shows the message", () => {
    const form = {
      ...emptyOrderForm(),
      productname: "Kettle",
      asin: "B0KETTLE01",
      currency: "EUR",
    };
    expect(formToPayload({ ...form, estimatedretailvalue: "129,99" }).estimatedretailvalue).toBe(
      "129.99",
    );
    expect(
      validateOrderForm({ ...form, currency: "JPY", estimatedretailvalue: "12.5" })
        .estimatedretailvalue,
    ).toBe("Amounts in JPY have no decimals: write a whole number such as 12");
  });
});

describe("the order's Amazon links", () => {
  const order = (
    o: Partial<{ asin: string | null; producturl: string | null; currency: string }>,
  ) => ({
    asin: "B0ABCDE123",
    producturl: null,
    currency: "USD",
    ...o,
  });

  test("Write review on Amazon opens the order's marketplace", () => {
    expect(writeReviewUrl(order({}), "US")).toBe(
      "https://www.amazon.com/review/create-review?asin=B0ABCDE123",
    );
    expect(writeReviewUrl(order({ currency: "JPY" }), "US")).toBe(
      "https://www.amazon.co.jp/review/create-review?asin=B0ABCDE123",
    );
    // Euros: the user's euro marketplace; the product URL's site wins over both.
    expect(writeReviewUrl(order({ currency: "EUR" }), "FR")).toBe(
      "https://www.amazon.fr/review/create-review?asin=B0ABCDE123",
    );
    expect(
      writeReviewUrl(
        order({ currency: "EUR", producturl: "https://www.amazon.it/dp/B0ABCDE123" }),
        "FR",
      ),
    ).toBe("https://www.amazon.it/review/create-review?asin=B0ABCDE123");
    expect(writeReviewUrl(order({ asin: null }), "US")).toBeNull();
  });

  test("View Product Page from the ASIN when there is no product URL", () => {
    expect(productPageUrl(order({ currency: "GBP" }), "US")).toBe(
      "https://www.amazon.co.uk/dp/B0ABCDE123",
    );
    expect(productPageUrl(order({ producturl: "https://example.com/p" }), "US")).toBe(
      "https://example.com/p",
    );
    expect(productPageUrl(order({ asin: "" }), "US")).toBeNull();
  });

  test("View on Amazon for a review reference: the same site", () => {
    expect(reviewUrl("R1ABC", "https://www.amazon.de")).toBe("https://www.amazon.de/review/R1ABC");
  });

  test("the usual delivered day: shipped plus the marketplace's days, never after today", () => {
    expect(orderMarketplace({ currency: "CAD" }, "US")).toBe("CA");
    expect(usualDeliveredDay("2026-10-30", "CA", "2026-11-21")).toBe("2026-11-04");
    expect(usualDeliveredDay("2026-11-20", "US", "2026-11-21")).toBe("2026-11-21");
  });
});

describe("delivery date and status", () => {
  test("Received with no delivery date fills today; a set date stays", () => {
    const form = emptyOrderForm();
    expect(withStatus(form, "Received", "2026-11-21").datedelivered).toBe("2026-11-21");
    expect(
      withStatus({ ...form, datedelivered: "2026-11-19" }, "Received", "2026-11-21").datedelivered,
    ).toBe("2026-11-19");
    expect(withStatus(form, "Shipped", "2026-11-21").datedelivered).toBe("");
  });
});

describe("upload retries", () => {
  test("a refused file gets no Retry; a network or server failure does", () => {
    expect([400, 413, 415, 401].map(canRetryUpload)).toEqual([false, false, false, false]);
    expect([null, 408, 429, 500, 503, 507].map(canRetryUpload)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});

describe("review drafts", () => {
  const store = new Map<string, string>();
  const fake = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
  afterEach(() => {
    store.clear();
    (globalThis as { localStorage?: unknown }).localStorage = undefined;
  });

  test("kept per user and order, offered while it differs, dropped when old", async () => {
    (globalThis as { localStorage?: unknown }).localStorage = fake;
    const { readDraft, writeDraft, clearDraft, draftDiffers } = await import("./review-draft.ts");
    writeDraft(1, 5, { subject: "Great", text: "Works well", savedAt: "2026-11-20T10:00:00.000Z" });
    const now = new Date("2026-11-21T10:00:00.000Z");
    const d = readDraft(1, 5, now);
    expect(d?.text).toBe("Works well");
    expect(readDraft(2, 5, now)).toBeNull();
    expect(draftDiffers(d, { reviewsubject: "Great", reviewtext: "Works well" })).toBe(false);
    expect(draftDiffers(d, { reviewsubject: "Great", reviewtext: null })).toBe(true);
    expect(readDraft(1, 5, new Date("2027-01-01T00:00:00.000Z"))).toBeNull();
    writeDraft(1, 5, { subject: "", text: "x", savedAt: now.toISOString() });
    clearDraft(1, 5);
    expect(readDraft(1, 5, now)).toBeNull();
  });
});
