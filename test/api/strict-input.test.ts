/**
 * Dates are `YYYY-MM-DD` or full ISO date-times, nothing else; invisible
 * control characters (C0 but tab/LF/CR, DEL, C1, bidi overrides and isolates) and lone surrogates
 * are stripped from every text of every JSON body (src/contract/fields.ts, applied by readBody).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cleanText } from "../../src/contract/fields.ts";
import type { Order } from "../../src/contract/index.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call, login } from "./helpers.ts";
import { amazonMail } from "./mail-messages.ts";

let h: Harness;
let token: string;
let order: Order;

const orderRow = (id: number) =>
  h.db.$client.query("SELECT * FROM orders WHERE id = ?").get(id) as Record<string, unknown>;

beforeAll(async () => {
  h = createHarness();
  token = (await h.register("strict@example.com")).token;
  order = (
    await call<Order>(h, "POST", "/api/orders", {
      token,
      body: { productname: "Desk Lamp", asin: "B0LAMP0001", dateordered: "2026-11-01" },
    })
  ).body;
});
afterAll(async () => {
  await h.close();
});

describe("dates", () => {
  const refused = [
    "1",
    "0",
    "Tuesday 5",
    "2026",
    "2026-11",
    "11/21/2026",
    "2026-11-21T10:00",
    "2026-11-21 10:00:00",
    "2026-02-30",
    "2026-13-01",
    "2026-11-21T25:00:00Z",
    "Sat, 21 Nov 2026 10:00:00 GMT",
    "2026-11-21T10:00:00+0100",
    " 2026-11-21x",
  ];
  for (const value of refused) {
    test(`"${value}" is 400 with the sentence promising a date such as 2026-11-21, nothing changes`, async () => {
      const before = JSON.stringify(orderRow(order.orderid));
      for (const field of ["dateordered", "expecteddeliverydate", "datedelivered"]) {
        const res = await call(h, "PUT", `/api/orders/${order.orderid}`, {
          token,
          body: { [field]: value },
        });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(/ must be a date such as 2026-11-21$/);
      }
      const created = await call(h, "POST", "/api/orders", {
        token,
        body: { productname: "Another", asin: "B0ANOTHER1", dateordered: value },
      });
      expect(created.status).toBe(400);
      expect(created.body.error).toBe("Date ordered must be a date such as 2026-11-21");
      expect(JSON.stringify(orderRow(order.orderid))).toBe(before);
    });
  }

  test("a day and full ISO date-times (Z or an offset, with or without fractions) are taken", async () => {
    const accepted: [string, string, string][] = [
      ["dateordered", "2026-11-20", "2026-11-20"],
      ["datedelivered", "2026-11-21T14:05:00Z", "2026-11-21T14:05:00.000Z"],
      ["datedelivered", "2026-11-21T14:05:00.250+01:00", "2026-11-21T13:05:00.250Z"],
      ["expecteddeliverydate", "2026-11-25", "2026-11-25"],
    ];
    for (const [field, value, stored] of accepted) {
      const res = await call<Order>(h, "PUT", `/api/orders/${order.orderid}`, {
        token,
        body: { [field]: value },
      });
      expect(res.status).toBe(200);
      expect(res.body[field as keyof Order]).toBe(stored);
    }
  });
});

describe("control characters", () => {
  test("cleanText removes exactly the unwanted characters", () => {
    expect(cleanText("a\u0000b\u0007c\u001bd\u007fe\u0085f\u009fg")).toBe("abcdefg");
    expect(cleanText("x\u202ey\u202az\u2066w\u2069v")).toBe("xyzwv");
    expect(cleanText("lone \ud800 high, lone \udc00 low")).toBe("lone  high, lone  low");
    // Kept: tab, line feed, carriage return, a real surrogate pair, other scripts and marks.
    const kept = "line 1\r\nline 2\tend 😀 שלום \u200f é";
    expect(cleanText(kept)).toBe(kept);
  });

  test("product name, notes and review text are stored without them", async () => {
    const res = await call<Order>(h, "PUT", `/api/orders/${order.orderid}`, {
      token,
      body: {
        productname: "Lamp\u202e gpj.exe\u0000",
        reviewsubject: "Bright\u0007 and \u2066warm\u2069",
        reviewtext: "Line one\nLine two\u0000\twith a tab\u009b",
        deliverydetails: "Left at door\u001b[31m",
      },
    });
    expect(res.status).toBe(200);
    const row = orderRow(order.orderid);
    expect(row.product_name).toBe("Lamp gpj.exe");
    expect(row.review_subject).toBe("Bright and warm");
    expect(row.review_text).toBe("Line one\nLine two\twith a tab");
    expect(row.delivery_details).toBe("Left at door[31m");
    expect(res.body.productname).toBe("Lamp gpj.exe");
  });

  test("a lone surrogate is removed, not stored as a replacement character", async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud83d, which JSON.parse restores.
    const res = await call<Order>(h, "PUT", `/api/orders/${order.orderid}`, {
      token,
      body: { reviewsubject: "Half an emoji \ud83d here" },
    });
    expect(res.status).toBe(200);
    expect(orderRow(order.orderid).review_subject).toBe("Half an emoji  here");
  });

  test("a name made only of control characters is refused as missing, nothing changes", async () => {
    const before = JSON.stringify(orderRow(order.orderid));
    const res = await call(h, "PUT", `/api/orders/${order.orderid}`, {
      token,
      body: { productname: "\u202e\u0000\u0001" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Product name is required");
    expect(JSON.stringify(orderRow(order.orderid))).toBe(before);
  });

  test("every endpoint's text: display name at registration and in the profile", async () => {
    const u = await call<{ token: string; user: { displayname: string } }>(
      h,
      "POST",
      "/api/auth/register",
      {
        body: { email: "ctl@example.com", password: "secret1", displayname: "Eve\u202e\u0000 Doe" },
      },
    );
    expect(u.status).toBe(201);
    expect(u.body.user.displayname).toBe("Eve Doe");
    const p = await call<{ user: { displayname: string } }>(h, "PUT", "/api/user/profile", {
      token: u.body.token,
      body: { displayname: "Eve\u0085 \u2067Roe", email: "ctl@example.com" },
    });
    expect(p.status).toBe(200);
    expect(p.body.user.displayname).toBe("Eve Roe");
    // The same cleaning applies at sign-in, so the password still matches.
    expect((await login(h, "ctl@example.com", "secret1")).status).toBe(200);
  });

  test("the tracking call's number too", async () => {
    const res = await call<{ order: Order }>(h, "PUT", `/api/orders/${order.orderid}/tracking`, {
      token,
      body: { trackingnumber: "1Z999AA1\u000001234\u202e5678", carrier: "OTHER" },
    });
    expect(res.status).toBe(200);
    expect(orderRow(order.orderid).tracking_number).toBe("1Z999AA1012345678");
  });

  test("product names read from Amazon's mail are cleaned the same way", async () => {
    const u = await h.register("mail-ctl@example.com");
    const result = await h.services.mailIngest.ingest(
      u.userid,
      amazonMail({
        kind: "ordered",
        order: "112-7777777-1234567",
        items: [
          { name: "Phone Case\u0007\u202e gpj.exe\u001b", asin: "B0CASE0001", price: "0.00" },
        ],
        total: "0.00",
        messageId: "ctl-1@amazon.com",
      }),
    );
    expect(result.outcome).not.toBe("skipped");
    const names = (
      h.db.$client.query("SELECT product_name FROM orders WHERE user_id = ?").all(u.userid) as {
        product_name: string;
      }[]
    ).map((r) => r.product_name);
    expect(names).toEqual(["Phone Case gpj.exe"]);
  });
});
