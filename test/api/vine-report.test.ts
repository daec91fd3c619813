/**
 * The Itemized Report as Amazon serves it, cleaned text,
 * uploads per user per hour and a summary that adds up.
 *
 * The layouts are modelled on public code that reads real downloads (our own rows and numbers):
 * - US: "Row 0: Title, Row 1: Empty, Row 2: Headers, Row 3+: Data" with the English headers
 *   (a Vine tax tool's upload route reading Itemized_Report_2025.xlsx with SheetJS `range: 2`,
 *   found by code search for "Itemized Report"; the search index does not name its repository);
 * - DE: the headers on the third row, read by position, order type `ORDER`/`CANCELLATION`, dates
 *   `03/11/2025` or `03.11.2025` day first, ETV text `1.234,56 €` (hutauf/VineTaxTools at 563c801,
 *   main_order_tax_cancellations_eval.user.js: fetchData, extractData, parseDateSafe,
 *   etvstrtofloat).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import type { ItemizedReportSummary, Order } from "../../src/contract/index.ts";
import { REPORT_HEADERS } from "../../src/contract/vine-constants.ts";
import { createHarness, type Harness } from "../harness.ts";
import { buildXlsx, type XlsxCell, xlsxParts } from "../support/xlsx.ts";

let h: Harness;
beforeAll(() => {
  h = createHarness({}, { vine: { reportUploadsPerHour: 4 } });
});
afterAll(() => h.close());

type Answer = ItemizedReportSummary & { error?: string };

async function upload(token: string, bytes: Uint8Array | string, name = "Itemized Report.xlsx") {
  const form = new FormData();
  form.append("file", new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name));
  const res = await h.req("POST", "/api/vine/itemized-report", { token, raw: form });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer };
}

async function user(marketplace?: string) {
  const u = await h.register();
  if (marketplace) {
    const r = await h.req("PUT", "/api/user/marketplace", {
      token: u.token,
      body: { vineMarketplace: marketplace },
    });
    expect(r.status).toBe(200);
  }
  return u;
}

async function addOrder(token: string, fields: Record<string, unknown>): Promise<Order> {
  const res = await h.req("POST", "/api/orders", {
    token,
    body: { productname: "Item", ...fields },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Order;
}

const ordersOf = async (token: string) =>
  (await (await h.req("GET", "/api/orders?status=all&sort=oldest", { token })).json()) as Order[];

/** rows = created + updated + canceled + unchanged + skipped, and skipped = errors. */
function expectBucketsAddUp(s: ItemizedReportSummary) {
  expect(s.created + s.updated + s.canceled + s.unchanged + s.skipped).toBe(s.rows);
  expect(s.skipped).toBe(s.errors.length);
}

describe("the report as Amazon serves it", () => {
  test("title, empty row, headers on row 3 (.xlsx); a line-broken order number matches its order", async () => {
    const u = await user("US");
    const known = await addOrder(u.token, {
      amazonordernumber: "777-8888888-9999999",
      asin: "B0KNOWN001",
    });
    const rows: XlsxCell[][] = [
      ["Itemized Report 2025"],
      [null],
      [...REPORT_HEADERS],
      ["777-\n8888888-\n9999999", "B0KNOWN001", "Known", "ORDER", "11/03/2025", null, null, 19.99],
      ["111 2222222 3333333", "B0NEW00001", "New", "ORDER", "11/04/2025", "11/05/2025", null, 5],
    ];
    const r = await upload(u.token, buildXlsx(rows));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      rows: 2,
      created: 1,
      updated: 1,
      headerRow: 3,
      dateForm: "MM/DD/YYYY",
    });
    const list = await ordersOf(u.token);
    expect(list).toHaveLength(2);
    const byNumber = new Map(list.map((o) => [o.amazonordernumber, o]));
    expect(byNumber.get("777-8888888-9999999")?.orderid).toBe(known.orderid);
    expect(byNumber.get("777-8888888-9999999")?.estimatedretailvalue).toBe("19.99");
    expect(byNumber.get("777-8888888-9999999")?.dateordered).toBe("2025-11-03");
    expect(byNumber.get("111-2222222-3333333")?.status).toBe("Shipped");
  });

  test("a subtitle and blank rows before the headers, inline strings (row 5)", async () => {
    const u = await user("US");
    const rows: XlsxCell[][] = [
      ["Amazon Vine"],
      ["Itemized Report 2025"],
      [null],
      ["Generated 2025-12-31"],
      [...REPORT_HEADERS],
      ["112-0000000-0000001", "B0INLINE01", "Lamp", "ORDER", "2025-11-03", null, null, 12.5],
    ];
    const r = await upload(u.token, zipSync(xlsxParts(rows, { inlineStrings: true })));
    expect(r.body).toMatchObject({ rows: 1, created: 1, headerRow: 5, dateForm: "YYYY-MM-DD" });
  });

  test("the German report: headers by position on row 3, 03/11/2025 and 03.11.2025 day first, 1.234,56 €", async () => {
    const u = await user("DE");
    const rows: XlsxCell[][] = [
      ["Itemized Report 2025"],
      [null],
      // Header words other than Amazon's English ones: read by position.
      ["Nr.", "Artikel", "Name", "Typ", "Datum", "Versand", "Storno", "Wert"],
      [
        "302-1111111-2222222",
        "B0DE000001",
        "Gartenschlauch",
        "ORDER",
        "03/11/2025 14:22",
        null,
        null,
        "1.234,56 €",
      ],
      [
        "302-1111111-3333333",
        "B0DE000002",
        "Vogelhaus",
        "ORDER",
        "04.11.2025",
        "05.11.2025",
        null,
        "12,99 €",
      ],
      [
        "302-1111111-4444444",
        "B0DE000003",
        "Tasse",
        "CANCELLATION",
        "13/11/2025",
        null,
        "14/11/2025",
        "-7,50 €",
      ],
    ];
    const r = await upload(u.token, buildXlsx(rows));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      rows: 3,
      created: 2,
      canceled: 1,
      skipped: 0,
      headerRow: 3,
      dateForm: "DD/MM/YYYY, DD.MM.YYYY",
    });
    const list = await ordersOf(u.token);
    expect(
      list.map((o) => [o.productname, o.dateordered, o.estimatedretailvalue, o.currency, o.status]),
    ).toEqual([
      ["Gartenschlauch", "2025-11-03", "1234.56", "EUR", "Ordered"],
      ["Vogelhaus", "2025-11-04", "12.99", "EUR", "Shipped"],
      ["Tasse", "2025-11-13", "7.50", "EUR", "Canceled"],
    ]);
  });

  test("dates that contradict the marketplace are refused with a sentence, and nothing changes", async () => {
    const us = await user("US");
    const dayFirst = [
      [...REPORT_HEADERS],
      ["113-0000000-0000001", "B0SWAP0001", "A", "ORDER", "03/11/2025", null, null, "5.00"],
      ["113-0000000-0000002", "B0SWAP0002", "B", "ORDER", "13/11/2025", null, null, "5.00"],
    ]
      .map((r) => r.map((c) => c ?? "").join(","))
      .join("\n");
    const r1 = await upload(us.token, dayFirst, "report.csv");
    expect(r1.status).toBe(400);
    expect(r1.body.error).toBe(
      'The report\'s dates are written day first ("13/11/2025", row 3), but your Vine marketplace is the US, where the report writes the month first; nothing was imported. If your Vine account is on another Amazon site, choose it under Account → Profile → Vine marketplace and upload the report again.',
    );
    expect(await ordersOf(us.token)).toEqual([]);

    const uk = await user("UK");
    const monthFirst = dayFirst.replace("13/11/2025", "11/13/2025");
    const r2 = await upload(uk.token, monthFirst, "report.csv");
    expect(r2.status).toBe(400);
    expect(r2.body.error).toStartWith(
      'The report\'s dates are written month first ("11/13/2025", row 3), but your Vine marketplace is the UK, where the report writes the day first',
    );
    // The same file for a UK reviewer without the contradiction: 3 November, not 11 March.
    const r3 = await upload(uk.token, dayFirst, "report.csv");
    expect(r3.body).toMatchObject({ rows: 2, created: 2, dateForm: "DD/MM/YYYY" });
    expect((await ordersOf(uk.token)).map((o) => o.dateordered)).toEqual([
      "2025-11-03",
      "2025-11-13",
    ]);
  });

  test("control and bidi characters are cleaned from every text cell (xlsx and csv)", async () => {
    const u = await user("US");
    const dirty = "Mug\u202E\u0007\u0085 deluxe";
    const xlsx = buildXlsx([
      [...REPORT_HEADERS],
      ["114-0000000-0000001", "B0CLEAN001", dirty, "ORDER", "2025-11-03", null, null, 3],
      // As Excel writes characters XML cannot hold.
      [
        "114-0000000-0000003",
        "B0CLEAN003",
        "Mug_x202E__x0007_ deluxe",
        "ORDER",
        null,
        null,
        null,
        3,
      ],
    ]);
    const csv = `${REPORT_HEADERS.join(",")}\n114-0000000-0000002,B0CLEAN002,"${dirty}",ORDER\u0007,2025-11-03,,,3\n`;
    expect((await upload(u.token, xlsx)).body.created).toBe(2);
    expect((await upload(u.token, csv, "report.csv")).body.created).toBe(1);
    expect((await ordersOf(u.token)).map((o) => o.productname)).toEqual([
      "Mug deluxe",
      "Mug deluxe",
      "Mug deluxe",
    ]);
  });
});

describe("the ETV CSV", () => {
  test("text stored before cleaning existed leaves the export clean", async () => {
    const u = await user("US");
    const o = await addOrder(u.token, {
      amazonordernumber: "116-0000000-0000001",
      asin: "B0ETVCSV01",
      dateordered: "2025-11-03",
      estimatedretailvalue: "3",
    });
    // As an older import stored it, before its cells were cleaned.
    h.db.$client
      .query("UPDATE orders SET product_name = ? WHERE id = ?")
      .run("Mug\u202E\u0007\u0085 deluxe", o.orderid);
    const res = await h.req("GET", "/api/vine/etv.csv?year=2025", { token: u.token });
    const text = await res.text();
    expect(text).toContain("116-0000000-0000001,B0ETVCSV01,Mug deluxe,2025-11-03,");
    for (const ch of ["\u202E", "\u0007", "\u0085"]) expect(text).not.toContain(ch);
  });
});

describe("the summary adds up", () => {
  test("every row in exactly one bucket, on a first import and a second", async () => {
    const u = await user("US");
    await addOrder(u.token, { amazonordernumber: "115-0000000-0000001", asin: "B0SUM00001" });
    await addOrder(u.token, {
      amazonordernumber: "115-0000000-0000002",
      asin: "B0SUM00002",
      status: "Shipped",
    });
    const rows: XlsxCell[][] = [
      ["Itemized Report 2025"],
      [null],
      [...REPORT_HEADERS],
      ["115-0000000-0000001", "B0SUM00001", "Updated", "ORDER", "2025-11-01", null, null, 9],
      [
        "115-0000000-0000002",
        "B0SUM00002",
        "Canceled",
        "CANCELLATION",
        "2025-11-01",
        null,
        "2025-11-02",
        -4,
      ],
      ["115-0000000-0000003", "B0SUM00003", "New", "ORDER", "2025-11-01", null, null, 1],
      [
        "115-0000000-0000004",
        "B0SUM00004",
        "New canceled",
        "CANCELLATION",
        "2025-11-01",
        null,
        "2025-11-01",
        -2,
      ],
      ["115-0000000-0000005", "not an asin", "Bad", "ORDER", "2025-11-01", null, null, 1],
      ["115-0000000-0000006", "B0SUM00006", "Bad", "ORDER", "2025-11-01", null, null, "ten"],
      [null],
    ];
    const first = await upload(u.token, buildXlsx(rows));
    expect(first.body).toMatchObject({
      rows: 6,
      created: 1,
      updated: 1,
      canceled: 2,
      unchanged: 0,
      skipped: 2,
    });
    expectBucketsAddUp(first.body);
    const second = await upload(u.token, buildXlsx(rows));
    expect(second.body).toMatchObject({ rows: 6, unchanged: 4, skipped: 2 });
    expectBucketsAddUp(second.body);
  });
});

describe("uploads per user per hour", () => {
  test("past the limit: 429 with Retry-After and a sentence; another user is not affected", async () => {
    const u = await user("US");
    const other = await user("US");
    for (let i = 0; i < 4; i++) {
      // Refused files count too: reading them is the cost.
      const r = await upload(
        u.token,
        i % 2 ? "name,price\nsocks,3\n" : buildXlsx([[...REPORT_HEADERS]]),
      );
      expect([200, 400]).toContain(r.status);
    }
    const refused = await upload(u.token, buildXlsx([[...REPORT_HEADERS]]));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(
      "You have uploaded 4 reports in the last hour. Try again in 60 minutes.",
    );
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect((await upload(other.token, buildXlsx([[...REPORT_HEADERS]]))).status).toBe(200);
  });
});
