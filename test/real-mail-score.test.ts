/**
 * The real-mail scorer itself (test/support/real-mail-score.ts): what it counts and how it
 * compares, so that the figures of test/mail-real.test.ts and the README can be trusted.
 */
import { describe, expect, test } from "bun:test";
import type { MailFacts, MailMessage, MailOrder } from "../src/mail/amazon/types.ts";
import {
  deliveryDayOf,
  type Expected,
  loadExpected,
  sameName,
  scoreSample,
  zoneOfDateHeader,
} from "./support/real-mail-score.ts";

const msg = (date: string): MailMessage => ({
  messageId: null,
  from: null,
  subject: "",
  date: new Date(date),
  html: null,
  text: null,
  headers: [{ name: "date", value: date }],
});

const order = (o: Partial<MailOrder>): MailOrder => ({
  amazonordernumber: "305-1111111-2222222",
  items: [],
  shiptoaddress: null,
  dateordered: null,
  expecteddeliverydatetext: null,
  trackingnumber: null,
  carrier: null,
  datedelivered: null,
  total: null,
  ...o,
});

const item = (productname: string, quantity: number, price: string | null) => ({
  productname,
  quantity,
  price,
  asin: null,
  producturl: null,
  productimage: null,
});

describe("real-mail scorer", () => {
  test("names match without regard to case, spacing or the ellipsis form, but a cut name is wrong", () => {
    expect(sameName("Fahrradklingel  Messing", "fahrradklingel messing")).toBe(true);
    expect(sameName("シリコンスプーン\u300024本セット", "シリコンスプーン 24本セット")).toBe(true);
    expect(sameName("Lampe…", "Lampe...")).toBe(true);
    expect(sameName("Fahrradklingel Messing...", "Fahrradklingel Messing klassisch")).toBe(false);
  });

  test("the delivery day is read in the Date header's own offset", () => {
    expect(zoneOfDateHeader(msg("Tue, 14 Oct 2025 23:40:18 +0900"))).toBe("Etc/GMT-9");
    expect(zoneOfDateHeader(msg("Tue, 28 Oct 2025 18:04:00 -0400"))).toBe("Etc/GMT+4");
    expect(zoneOfDateHeader(msg("Mon, 18 Aug 2025 17:14:12 +0000"))).toBe("UTC");
    // 23:40 in Tokyo is still the 14th there: "明日" is the 15th.
    const m = msg("Tue, 14 Oct 2025 23:40:18 +0900");
    expect(deliveryDayOf(order({ expecteddeliverydatetext: "明日" }), m)).toBe("2025-10-15");
    expect(deliveryDayOf(order({}), m)).toBeNull();
  });

  test("only what the mail shows is counted, and each field is judged on its own", () => {
    const exp: Expected = {
      marketplace: "DE",
      kind: "ordered",
      orders: [
        {
          number: "305-1111111-2222222",
          items: [{ name: "Bit-Set 32-teilig", quantity: 2, price: "9.90" }],
          total: null,
          delivery: "2026-10-13",
        },
      ],
    };
    const facts: MailFacts = {
      kind: "ordered",
      marketplace: "DE",
      reason: "test",
      orders: [
        order({
          items: [item("bit-set 32-teilig", 2, "9.9")],
          total: "19.80",
          expecteddeliverydatetext: "Zustellung: 15. Oktober",
        }),
      ],
    };
    const r = scoreSample("x.eml", exp, msg("Tue, 06 Oct 2026 16:21:26 +0000"), facts);
    expect(r.checks.kind).toMatchObject({ counted: true, right: true });
    expect(r.checks.order).toMatchObject({ counted: true, right: true });
    expect(r.checks.items).toMatchObject({ counted: true, right: true });
    expect(r.checks.prices).toMatchObject({ counted: true, right: true });
    expect(r.checks.totals.counted).toBe(false);
    expect(r.checks.delivery).toMatchObject({ counted: true, right: false });
  });

  test("a missing item, a wrong quantity or another order number is wrong", () => {
    const exp: Expected = {
      marketplace: "JP",
      kind: "shipped",
      orders: [
        {
          number: "503-2468013-5792046",
          items: [{ name: "ミントタブレット", quantity: 4, price: "660" }],
          total: "2640",
        },
      ],
    };
    const facts: MailFacts = {
      kind: "shipped",
      marketplace: "JP",
      reason: "test",
      orders: [
        order({
          amazonordernumber: "503-2468013-5792046",
          items: [item("ミントタブレット", 1, null)],
        }),
      ],
    };
    const r = scoreSample("y.eml", exp, msg("Fri, 31 May 2013 14:02:11 +0900"), facts);
    expect(r.checks.items.right).toBe(false);
    expect(r.checks.prices.right).toBe(false);
    expect(r.checks.totals.right).toBe(false);
    const other = scoreSample("y.eml", exp, msg("Fri, 31 May 2013 14:02:11 +0900"), {
      ...facts,
      orders: [order({ amazonordernumber: "503-0000000-0000000" })],
    });
    expect(other.checks.order.right).toBe(false);
  });

  test("every expected entry names a marketplace, a kind and well-formed values", () => {
    for (const [key, e] of Object.entries(loadExpected())) {
      expect({ key, mp: e.marketplace }).toEqual({
        key,
        mp: expect.stringMatching(/^(US|UK|DE|FR|IT|ES|JP|CA|AU)$/),
      });
      for (const o of e.orders) {
        expect(o.number).toMatch(/^\d{3}-\d{7}-\d{7}$/);
        if (o.total != null) expect(o.total).toMatch(/^\d+(\.\d{2})?$/);
        if (o.delivery != null) expect(o.delivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        for (const i of o.items ?? [])
          if (i.price != null) expect(i.price).toMatch(/^\d+(\.\d{2})?$/);
      }
    }
  });
});
