/**
 * Vine standing: settings, the standing's definitions at window edges and across time
 * zones, the Itemized Report import (.xlsx built like Amazon's, .csv, wrong files) and the ETV
 * export. Real SQLite through the real app; the vine service's clock is fixed.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import type {
  ItemizedReportSummary,
  Order,
  VineSettings,
  VineStanding,
} from "../../src/contract/index.ts";
import { REPORT_HEADERS } from "../../src/contract/vine-constants.ts";
import { createHarness, type Harness } from "../harness.ts";
import { buildXlsx, type XlsxCell } from "../support/xlsx.ts";

/** "Now": 21 Nov 2026, 12:00 UTC = 06:00 in Chicago (UTC-6), 21:00 in Tokyo. */
const now = new Date("2026-11-21T12:00:00.000Z");
let h: Harness;
beforeAll(() => {
  h = createHarness({}, { vine: { now: () => now } });
});
afterAll(() => h.close());

async function json<T>(res: Response | Promise<Response>): Promise<{ status: number; body: T }> {
  const r = await res;
  return { status: r.status, body: (await r.json()) as T };
}

async function user(zone = "America/Chicago") {
  const u = await h.register();
  const res = await h.req("PATCH", "/api/user/timezone", {
    token: u.token,
    body: { timezone: zone },
  });
  expect(res.status).toBe(200);
  return u;
}

async function addOrder(token: string, fields: Record<string, unknown>): Promise<Order> {
  const { status, body } = await json<Order>(
    h.req("POST", "/api/orders", {
      token,
      body: { productname: "Item", asin: "B0TEST0001", ...fields },
    }),
  );
  expect(status).toBe(201);
  return body;
}

const standing = (token: string) =>
  json<VineStanding>(h.req("GET", "/api/vine/standing", { token }));
const putSettings = (token: string, body: unknown) =>
  json<VineSettings & { error?: string }>(h.req("PUT", "/api/user/vine-settings", { token, body }));

describe("vine settings", () => {
  test("defaults, partial saves, and refused values change nothing", async () => {
    const u = await user();
    const got = await json<VineSettings>(
      h.req("GET", "/api/user/vine-settings", { token: u.token }),
    );
    expect(got.body).toEqual({
      tier: "Silver",
      rateWindowDays: 90,
      rateMinimum: 60,
      evaluationStart: null,
      evaluationEnd: null,
      evaluationStartTime: "00:00",
      evaluationEndTime: "23:59",
      rateRule: "2025",
      goldItems: 80,
      goldPercent: 90,
      dailyLimitSilver: 3,
      dailyLimitGold: 8,
    });
    const saved = await putSettings(u.token, {
      tier: "Gold",
      evaluationStart: "2026-06-01",
      evaluationEnd: "2026-11-30",
    });
    expect(saved.status).toBe(200);
    expect(saved.body.tier).toBe("Gold");
    expect(saved.body.rateMinimum).toBe(60);

    for (const [body, message] of [
      [{ rateMinimum: 120 }, "rateMinimum must be a whole number from 1 to 100"],
      [{ tier: "Platinum" }, "tier must be one of: Silver, Gold"],
      [{ evaluationEnd: "2026-02-30" }, "evaluationEnd must be a date such as 2026-01-31, or null"],
      [{ evaluationStart: null }, "Set the evaluation period's start too"],
      [{ evaluationStart: "2026-12-01" }, "The evaluation period must end after it starts"],
      [
        { evaluationStart: "2026-11-30", evaluationStartTime: "23:59", evaluationEndTime: "08:00" },
        "The evaluation period must end after it starts",
      ],
      [{ evaluationEndTime: "24:00" }, "evaluationEndTime must be a time such as 00:00 or 23:59"],
      [{ rateRule: "2019" }, "rateRule must be one of: 2025, legacy"],
      [{ dailyLimitGold: 2.5 }, "dailyLimitGold must be a whole number from 1 to 1000"],
      [{ colour: "red" }, "Unknown setting: colour"],
      [{}, "Nothing to update"],
    ] as const) {
      const r = await putSettings(u.token, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toStartWith(message);
    }
    const after = await json<VineSettings>(
      h.req("GET", "/api/user/vine-settings", { token: u.token }),
    );
    expect(after.body).toEqual(saved.body);
    expect((await h.req("GET", "/api/user/vine-settings")).status).toBe(401);
  });
});

describe("standing", () => {
  test("an order at 23:30 in the user's zone is that day, not the UTC one", async () => {
    const u = await user("America/Chicago");
    // 20 Nov 23:30 in Chicago (21 Nov 05:30 UTC) and 21 Nov 00:30 in Chicago.
    await addOrder(u.token, { dateordered: "2026-11-21T05:30:00.000Z" });
    await addOrder(u.token, { dateordered: "2026-11-21T06:30:00.000Z" });
    expect((await standing(u.token)).body.today).toEqual({ ordered: 1, limit: 3 });

    await h.req("PATCH", "/api/user/timezone", { token: u.token, body: { timezone: "UTC" } });
    expect((await standing(u.token)).body.today).toEqual({ ordered: 2, limit: 3 });
    // In Tokyo (UTC+9) it is already 21:00 on the 21st; both orders are on the 21st there too.
    await h.req("PATCH", "/api/user/timezone", {
      token: u.token,
      body: { timezone: "Asia/Tokyo" },
    });
    expect((await standing(u.token)).body.today.ordered).toBe(2);

    await putSettings(u.token, { tier: "Gold" });
    expect((await standing(u.token)).body.today.limit).toBe(8);
  });

  test("the rate window's first day counts, the day before does not (days and instants)", async () => {
    const u = await user("America/Chicago");
    // 90 days ending 21 Nov 2026 (in Chicago) start on 24 Aug 2026; Chicago is UTC-5 in August.
    await addOrder(u.token, { dateordered: "2026-08-24", status: "Review Approved" });
    await addOrder(u.token, { dateordered: "2026-08-23", status: "Review Approved" });
    await addOrder(u.token, { dateordered: "2026-08-24T05:30:00.000Z" }); // 24 Aug 00:30 CDT
    await addOrder(u.token, { dateordered: "2026-08-24T04:30:00.000Z" }); // 23 Aug 23:30 CDT
    const s = (await standing(u.token)).body;
    // Approved over delivered: the approved order is the window's only delivered one.
    expect(s.reviewRate).toMatchObject({ windowDays: 90, ordered: 2, counted: 1, reviewed: 1 });

    await putSettings(u.token, { rateWindowDays: 91, rateMinimum: 55 });
    const wider = (await standing(u.token)).body.reviewRate;
    expect(wider).toMatchObject({ windowDays: 91, ordered: 4, counted: 2, reviewed: 2 });
    expect(wider.minimum).toBe(55);
  });

  test("2025 rule: approved over delivered, a whole percent rounded down; pending; reviews to the minimum; the older rule on request", async () => {
    const u = await user("UTC");
    expect((await standing(u.token)).body.reviewRate.percent).toBeNull();
    const day = "2026-11-10";
    const add = async (n: number, fields: Record<string, unknown>) => {
      for (let i = 0; i < n; i++) await addOrder(u.token, { dateordered: day, ...fields });
    };
    await add(26, { status: "Review Approved" });
    await add(2, { status: "Review Submitted" });
    await add(1, { status: "Received" });
    await add(1, { status: "Shipped" }); // ordered, not delivered: Vine does not count it now
    await add(1, { status: "Ordered" });
    await add(1, { status: "Canceled" });
    await add(1, { status: "Received", reviewexempt: true, cantreviewreason: "damaged" });
    let rate = (await standing(u.token)).body.reviewRate;
    // 26 of 29 delivered = 89.66%: Vine shows 89 (below Gold's 90), not 89.7 or 90.
    expect(rate).toEqual({
      rule: "2025",
      windowDays: 90,
      ordered: 31,
      counted: 29,
      reviewed: 26,
      pending: 2,
      percent: 89,
      exact: 89.6,
      withPending: 96,
      minimum: 60,
      reviewsToMinimum: 0,
    });
    await putSettings(u.token, { rateMinimum: 95 });
    rate = (await standing(u.token)).body.reviewRate;
    // 95% of 29 = 27.55 → 28 approved reviews: 2 more (the pending ones would do it).
    expect(rate.reviewsToMinimum).toBe(2);

    // The older rule: submitted or approved (28) over ordered (31) = 90.3% → 90; nothing pending.
    await putSettings(u.token, { rateRule: "legacy" });
    rate = (await standing(u.token)).body.reviewRate;
    expect(rate).toMatchObject({
      rule: "legacy",
      counted: 31,
      reviewed: 28,
      pending: 0,
      percent: 90,
      exact: 90.3,
      withPending: null,
      reviewsToMinimum: 2,
    });
  });

  test("today: orders placed today (order date, else the day their mail arrived), never the day they were added", async () => {
    const u = await user("America/Chicago"); // now: 21 Nov 06:00 in Chicago
    await addOrder(u.token, { dateordered: "2026-11-21" });
    await addOrder(u.token, { dateordered: "2026-11-21T12:00:00.000Z" });
    // Four orders with no order date, added now: typed, from a report or from old mail.
    const undated: Order[] = [];
    for (let i = 0; i < 4; i++) undated.push(await addOrder(u.token, {}));
    const setMail = (o: Order | undefined, iso: string) =>
      h.db.$client.run("UPDATE orders SET mail_date = ? WHERE id = ?", [iso, o?.orderid ?? 0]);
    setMail(undated[0], "2026-11-21T11:00:00.000Z"); // 05:00 today in Chicago: today
    setMail(undated[1], "2026-11-21T05:00:00.000Z"); // 23:00 yesterday in Chicago
    setMail(undated[2], "2026-03-02T10:00:00.000Z"); // old mail imported today
    expect((await standing(u.token)).body.today).toEqual({ ordered: 3, limit: 3 });
  });

  test("evaluation: approved over delivered in the period, reviews needed, on track, projection", async () => {
    const u = await user("UTC");
    await putSettings(u.token, {
      evaluationStart: "2026-10-01",
      evaluationEnd: "2026-11-30",
      goldItems: 5,
      goldPercent: 90,
    });
    // In the period: 1 approved, 1 pending, 2 to review, 1 on its way; two outside it.
    await addOrder(u.token, { dateordered: "2026-10-01", status: "Review Approved" });
    await addOrder(u.token, { dateordered: "2026-11-30", status: "Review Submitted" });
    await addOrder(u.token, { dateordered: "2026-10-05", status: "Received" });
    await addOrder(u.token, { dateordered: "2026-10-06", status: "Review Rejected" });
    const shipped = await addOrder(u.token, { dateordered: "2026-10-07", status: "Shipped" });
    await addOrder(u.token, { dateordered: "2026-09-30", status: "Received" }); // before the period
    await addOrder(u.token, { dateordered: "2026-12-01", status: "Received" }); // after it
    let ev = (await standing(u.token)).body.evaluation;
    // 4 delivered, 1 approved = 25%; 90% of 4 = 3.6 → 4 approved: 3 more. Reviewing all 4 is
    // 100% but 4 reviews, fewer than Gold's 5: not on track. Projection: 51.5 of 61 days passed;
    // 2 reviews (approved or pending) and 4 items scale to 2.37 and 4.74.
    expect(ev).toEqual({
      rule: "2025",
      start: "2026-10-01",
      startTime: "00:00",
      end: "2026-11-30",
      endTime: "23:59",
      rolled: 0,
      defaultEnd: false,
      ordered: 5,
      counted: 4,
      reviewed: 1,
      pending: 1,
      percent: 25,
      exact: 25,
      withPending: 50,
      goldItems: 5,
      goldPercent: 90,
      reviewsNeeded: 3,
      onTrack: false,
      projection: { reviews: [2, 3], counted: [4, 5], percent: [40, 75] },
    });
    // Vine support removes the parcel that never came: it was not delivered, the rate stays.
    await h.req("PUT", `/api/orders/${shipped.orderid}`, {
      token: u.token,
      body: {
        cantreviewreason: "not-received",
        cantreviewnote: "Tracking stopped",
        reviewexempt: true,
      },
    });
    await putSettings(u.token, { goldItems: 4 });
    ev = (await standing(u.token)).body.evaluation;
    expect(ev?.ordered).toBe(4);
    expect(ev?.counted).toBe(4);
    expect(ev?.onTrack).toBe(true);

    await putSettings(u.token, { evaluationStart: null, evaluationEnd: null });
    expect((await standing(u.token)).body.evaluation).toBeNull();
  });

  test("evaluation period: start and end times, six months without an end, rolled on once it ends", async () => {
    const u = await user("America/Chicago"); // UTC-5 until 1 Nov 2026, UTC-6 after
    await putSettings(u.token, {
      evaluationStart: "2026-10-01",
      evaluationStartTime: "09:00",
      evaluationEnd: "2026-11-20",
      evaluationEndTime: "18:00",
    });
    const at = (iso: string) => addOrder(u.token, { dateordered: iso, status: "Received" });
    await at("2026-10-01T13:59:00.000Z"); // 1 Oct 08:59: before the start
    await at("2026-10-01T14:00:00.000Z"); // 1 Oct 09:00: in
    await at("2026-11-21T00:00:00.000Z"); // 20 Nov 18:00: in
    await at("2026-11-21T00:01:00.000Z"); // 20 Nov 18:01: after the end
    await at("2026-11-20"); // a bare day within the period's days: in
    // Now is 21 Nov 06:00 in Chicago: the saved period ended last evening; the next one starts
    // on 21 Nov and lasts six months (to 20 May 2027), with the same times.
    let ev = (await standing(u.token)).body.evaluation;
    expect(ev).toMatchObject({
      start: "2026-11-21",
      startTime: "09:00",
      end: "2027-05-20",
      endTime: "18:00",
      rolled: 1,
      ordered: 0,
      projection: null, // it starts at 09:00 today
    });
    await putSettings(u.token, { evaluationEnd: "2026-11-21" });
    await at("2026-11-22T00:00:00.000Z"); // 21 Nov 18:00: in
    await at("2026-11-22T00:01:00.000Z"); // 21 Nov 18:01: after the end
    ev = (await standing(u.token)).body.evaluation;
    // In: 1 Oct 09:00, 20 Nov 18:00 and 18:01, the bare 20 Nov, 21 Nov 18:00.
    expect(ev).toMatchObject({ start: "2026-10-01", end: "2026-11-21", rolled: 0, ordered: 5 });
    // Without an end: six months from the start, its last day the day before (Feb has 28 days).
    await putSettings(u.token, { evaluationStart: "2026-08-31", evaluationEnd: null });
    ev = (await standing(u.token)).body.evaluation;
    expect(ev).toMatchObject({ start: "2026-08-31", end: "2027-02-27", defaultEnd: true });
    // A start a year back rolls on twice, to the period holding today.
    await putSettings(u.token, { evaluationStart: "2025-11-01" });
    ev = (await standing(u.token)).body.evaluation;
    expect(ev).toMatchObject({ start: "2026-11-01", end: "2027-04-30", rolled: 2 });
  });

  test("awaiting approval: submitted only, oldest in whole days", async () => {
    const u = await user("UTC");
    await addOrder(u.token, {
      status: "Review Submitted",
      datereviewsubmitted: "2026-11-11T13:00:00.000Z",
    });
    await addOrder(u.token, {
      status: "Review Submitted",
      datereviewsubmitted: "2026-11-20T12:00:00.000Z",
    });
    await addOrder(u.token, {
      status: "Review Approved",
      datereviewsubmitted: "2026-10-01T00:00:00.000Z",
    });
    // 9 days and 23 hours ago: 9 whole days.
    expect((await standing(u.token)).body.awaitingApproval).toEqual({ count: 2, oldestDays: 9 });
  });

  test("ETV per year (user's zone) and currency; canceled counted apart", async () => {
    const u = await user("America/Chicago");
    await addOrder(u.token, { dateordered: "2026-03-02", estimatedretailvalue: "10.50" });
    await addOrder(u.token, { dateordered: "2026-03-20", estimatedretailvalue: "4.25" });
    await addOrder(u.token, {
      dateordered: "2026-05-01",
      estimatedretailvalue: "99.99",
      status: "Canceled",
    });
    // 1 Jan 2027 03:00 UTC is still New Year's Eve in Chicago.
    await addOrder(u.token, {
      dateordered: "2027-01-01T03:00:00.000Z",
      estimatedretailvalue: "20",
    });
    await addOrder(u.token, { dateordered: "2025-12-31", estimatedretailvalue: "1" });
    const eur = await addOrder(u.token, { dateordered: "2026-07-07", estimatedretailvalue: "30" });
    h.db.$client.run("UPDATE orders SET currency = 'EUR' WHERE id = ?", [eur.orderid]);
    const etv = (await standing(u.token)).body.etv;
    const months = (m: Record<number, number>) => Array.from({ length: 12 }, (_, i) => m[i] ?? 0);
    // A US reviewer's USD years carry the year's 1099-NEC threshold: $600 through 2025, $2,000 after.
    expect(etv).toEqual([
      {
        year: 2026,
        currency: "EUR",
        total: 30,
        orders: 1,
        canceled: 0,
        months: months({ 6: 30 }),
        threshold1099: null,
      },
      {
        year: 2026,
        currency: "USD",
        total: 34.75,
        orders: 3,
        canceled: 1,
        months: months({ 2: 14.75, 11: 20 }),
        threshold1099: 2000,
      },
      {
        year: 2025,
        currency: "USD",
        total: 1,
        orders: 1,
        canceled: 0,
        months: months({ 11: 1 }),
        threshold1099: 600,
      },
    ]);
    // Not a US reviewer: no US threshold, even for USD amounts.
    const put = await h.req("PUT", "/api/user/marketplace", {
      token: u.token,
      body: { vineMarketplace: "UK" },
    });
    expect(put.status).toBe(200);
    const uk = (await standing(u.token)).body.etv;
    expect(uk.map((e) => e.threshold1099)).toEqual([null, null, null]);
  });
});

const d = (s: string) => new Date(`${s}T00:00:00.000Z`);

async function upload(
  token: string,
  bytes: Uint8Array | string,
  name = "Itemized Report.xlsx",
  field = "file",
) {
  const form = new FormData();
  form.append(field, new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name));
  return json<ItemizedReportSummary & { error?: string }>(
    h.req("POST", "/api/vine/itemized-report", { token, raw: form }),
  );
}

const ordersOf = async (token: string) =>
  (await json<Order[]>(h.req("GET", "/api/orders?status=all&sort=oldest", { token }))).body;

describe("Itemized Report import", () => {
  test("an .xlsx like Amazon's: matches, creates, cancels, never backwards; twice changes nothing", async () => {
    const u = await user("UTC");
    const other = await user("UTC");
    // The other user has an order with the same number: it must stay as it is.
    const theirs = await addOrder(other.token, {
      amazonordernumber: "111-0000001-0000001",
      asin: "B0AAAAAAA1",
      estimatedretailvalue: "5",
    });
    const single = await addOrder(u.token, {
      amazonordernumber: "111-0000001-0000001",
      asin: "B0AAAAAAA1",
      estimatedretailvalue: "5",
    });
    const multiA = await addOrder(u.token, {
      amazonordernumber: "111-0000002-0000002",
      asin: "B0BBBBBBB1",
    });
    const multiB = await addOrder(u.token, {
      amazonordernumber: "111-0000002-0000002",
      asin: "B0BBBBBBB2",
      status: "Shipped",
    });
    const reviewed = await addOrder(u.token, {
      amazonordernumber: "111-0000003-0000003",
      asin: "B0CCCCCCC1",
      status: "Review Approved",
      estimatedretailvalue: "12",
      dateordered: "2026-10-01",
    });

    const rows: XlsxCell[][] = [
      ["Itemized Report 2026"],
      [...REPORT_HEADERS],
      [
        "111-0000001-0000001",
        "B0AAAAAAA1",
        "Mug",
        "ORDER",
        d("2026-11-03"),
        d("2026-11-04"),
        null,
        24.99,
      ],
      ["111-0000002-0000002", "B0BBBBBBB2", "Lamp", "ORDER", d("2026-11-05"), null, null, 40],
      [
        "111-0000002-0000002",
        "B0BBBBBBB2",
        "Lamp",
        "CANCELLATION",
        d("2026-11-05"),
        null,
        d("2026-11-06"),
        -40,
      ],
      [
        "111-0000003-0000003",
        "B0CCCCCCC1",
        "Pen",
        "CANCELLATION",
        d("2026-10-01"),
        null,
        d("2026-10-02"),
        -12,
      ],
      [
        "111-0000004-0000004",
        "B0DDDDDDD1",
        "New thing",
        "ORDER",
        d("2026-09-09"),
        d("2026-09-10"),
        null,
        15.5,
      ],
      [
        "111-0000005-0000005",
        "B0EEEEEEE1",
        "Gone",
        "CANCELLATION",
        d("2026-09-09"),
        null,
        d("2026-09-09"),
        -7,
      ],
      ["111-0000006-0000006", "not an asin", "Bad", "ORDER", d("2026-09-09"), null, null, 1],
      [
        "111-0000007-0000007",
        "B0FFFFFFF1",
        "Bad value",
        "ORDER",
        d("2026-09-09"),
        null,
        null,
        "about ten",
      ],
      [null, null, null, null, null, null, null, null],
    ];
    const first = await upload(u.token, buildXlsx(rows));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      rows: 8,
      created: 1,
      updated: 2,
      canceled: 2,
      unchanged: 1,
      skipped: 2,
      headerRow: 2,
      dateForm: "Excel dates",
      errors: [
        // The sentence in English, and as a catalog id and values for the reader's language.
        {
          row: 9,
          message: '"NOT AN ASIN" is not an ASIN (10 letters or digits)',
          messageCode: "vine.server.rowNotAsin",
          messageValues: { value: "NOT AN ASIN" },
        },
        {
          row: 10,
          message: "Estimated Tax Value is not an amount such as 24.99",
          messageCode: "vine.server.rowAmount",
          messageValues: { example: "24.99" },
        },
      ],
    });
    const after = await ordersOf(u.token);
    const byId = new Map(after.map((o) => [o.orderid, o]));
    expect(byId.get(single.orderid)?.estimatedretailvalue).toBe("24.99");
    expect(byId.get(single.orderid)?.status).toBe("Shipped");
    expect(byId.get(multiA.orderid)?.status).toBe("Ordered");
    expect(byId.get(multiA.orderid)?.estimatedretailvalue).toBeNull();
    expect(byId.get(multiB.orderid)?.status).toBe("Canceled");
    expect(byId.get(multiB.orderid)?.estimatedretailvalue).toBe("40.00");
    // A cancellation never takes a reviewed order back.
    expect(byId.get(reviewed.orderid)?.status).toBe("Review Approved");
    const created = after.filter((o) => !byId.has(o.orderid) || o.orderid > reviewed.orderid);
    expect(
      created.map((o) => [
        o.amazonordernumber,
        o.asin,
        o.productname,
        o.status,
        o.dateordered,
        o.estimatedretailvalue,
      ]),
    ).toEqual([
      ["111-0000004-0000004", "B0DDDDDDD1", "New thing", "Shipped", "2026-09-09", "15.50"],
      ["111-0000005-0000005", "B0EEEEEEE1", "Gone", "Canceled", "2026-09-09", "7.00"],
    ]);
    const theirsAfter = (
      await json<Order>(h.req("GET", `/api/orders/${theirs.orderid}`, { token: other.token }))
    ).body;
    expect(theirsAfter).toEqual(theirs);
    expect(await ordersOf(other.token)).toHaveLength(1);

    const second = await upload(u.token, buildXlsx(rows));
    expect(second.body).toMatchObject({
      rows: 8,
      created: 0,
      updated: 0,
      canceled: 0,
      unchanged: 6,
      skipped: 2,
    });
    expect(await ordersOf(u.token)).toEqual(after);
  });

  test("the same table as .csv, headers in the first row", async () => {
    const u = await user("UTC");
    const csv = [
      REPORT_HEADERS.join(","),
      '112-1,B0CSV00001,"Socks, 3 pairs",ORDER,11/03/2026,,,$12.00',
      "112-2,B0CSV00002,Hat,ORDER,2026-11-04,2026-11-05,,3",
    ].join("\r\n");
    const r = await upload(u.token, `\uFEFF${csv}`, "report.csv");
    expect(r.body).toEqual({
      rows: 2,
      created: 2,
      updated: 0,
      canceled: 0,
      unchanged: 0,
      skipped: 0,
      errors: [],
      headerRow: 1,
      dateForm: "MM/DD/YYYY, YYYY-MM-DD",
    });
    const list = await ordersOf(u.token);
    expect(
      list.map((o) => [o.productname, o.dateordered, o.estimatedretailvalue, o.status]),
    ).toEqual([
      ["Socks, 3 pairs", "2026-11-03", "12.00", "Ordered"],
      ["Hat", "2026-11-04", "3.00", "Shipped"],
    ]);
  });

  test("wrong files get a 400 that says what was expected, and change nothing", async () => {
    const u = await user("UTC");
    const expected =
      "This file is not an Amazon Vine Itemized Report: one of its first 10 rows must hold the headers Order Number, ASIN, Product Name, Order Type, Order Date, Shipped Date, Cancelled Date, Estimated Tax Value";
    const cases: [Uint8Array | string, string, string][] = [
      ["name,price\nsocks,3\n", "x.csv", expected],
      [buildXlsx([["Orders"], ["Order", "Item", "Price"], ["1", "2", 3]]), "x.xlsx", expected],
      [
        new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
        "x.png",
        expected,
      ],
      ["", "empty.csv", "The file is empty"],
      [
        new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]),
        "old.xls",
        "This is an old Excel (.xls) file",
      ],
      [
        new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]),
        "broken.xlsx",
        "This .xlsx file is damaged",
      ],
    ];
    for (const [bytes, name, message] of cases) {
      const r = await upload(u.token, bytes, name);
      expect(r.status).toBe(400);
      expect(r.body.error).toStartWith(message);
    }
    // Why the file is damaged is our sentence: also its text, for the reader's language.
    const broken = await upload(u.token, new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2]), "b.xlsx");
    expect(broken.body).toMatchObject({
      error:
        "This .xlsx file is damaged (it is not a readable zip archive); download the report again from Amazon",
      code: "xlsx_damaged",
      values: { reason: "it is not a readable zip archive" },
      texts: { reason: { code: "vine.server.xlsx.notZip" } },
    });
    // A zip bomb: 70 MB of zeros (over the 32 MB limit) packs into a few KB; refused before anything is unpacked.
    const bomb = zipSync({ "xl/worksheets/sheet1.xml": new Uint8Array(70 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(200_000);
    const bombed = await upload(u.token, bomb, "bomb.xlsx");
    expect(bombed.status).toBe(400);
    expect(bombed.body.error).toBe("This spreadsheet is too large to be an Itemized Report");
    const wrongField = await upload(u.token, "x", "x.csv", "files");
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error).toBe(
      "Upload the Itemized Report as multipart/form-data in a field named file (.xlsx or .csv)",
    );
    const asJson = await json<{ error: string }>(
      h.req("POST", "/api/vine/itemized-report", { token: u.token, body: { file: "x" } }),
    );
    expect(asJson.status).toBe(400);
    expect(await ordersOf(u.token)).toEqual([]);
    expect((await upload("", "x", "x.csv")).status).toBe(401);
  });
});

describe("ETV export", () => {
  test("one row per order of the year, a total line, a file name; formulas defused", async () => {
    const u = await user("America/Chicago");
    await addOrder(u.token, {
      amazonordernumber: "113-1",
      asin: "B0ETV00001",
      productname: '=HYPERLINK("x") "Mug"',
      dateordered: "2026-02-01",
      estimatedretailvalue: "10",
    });
    await addOrder(u.token, {
      amazonordernumber: "113-2",
      asin: "B0ETV00002",
      productname: "Lamp, brass",
      dateordered: "2027-01-01T03:00:00.000Z",
      estimatedretailvalue: "5.5",
    });
    await addOrder(u.token, {
      amazonordernumber: "113-3",
      asin: "B0ETV00003",
      productname: "Canceled one",
      dateordered: "2026-03-01",
      estimatedretailvalue: "99",
      status: "Canceled",
    });
    await addOrder(u.token, {
      amazonordernumber: "113-4",
      asin: "B0ETV00004",
      productname: "Next year",
      dateordered: "2027-01-02",
      estimatedretailvalue: "1",
    });
    const res = await h.req("GET", "/api/vine/etv.csv?year=2026", { token: u.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="grapevine-etv-2026.csv"',
    );
    expect(res.headers.get("content-type")).toStartWith("text/csv");
    expect((await res.text()).split("\r\n")).toEqual([
      "Order Number,ASIN,Product,Order Date,Status,Canceled,ETV,Currency",
      `113-1,B0ETV00001,"'=HYPERLINK(""x"") ""Mug""",2026-02-01,Ordered,no,10.00,USD`,
      "113-3,B0ETV00003,Canceled one,2026-03-01,Canceled,yes,99.00,USD",
      '113-2,B0ETV00002,"Lamp, brass",2026-12-31,Ordered,no,5.50,USD',
      "Total 2026 (without canceled orders),,,,,,15.50,USD",
      "",
    ]);
    for (const q of ["", "?year=26", "?year=abcd", "?year=1999"]) {
      const bad = await json<{ error: string }>(
        h.req("GET", `/api/vine/etv.csv${q}`, { token: u.token }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain("year");
    }
    // A German reader's file says its words in German; the data stays as it is.
    h.db.$client.run("UPDATE users SET language = 'de' WHERE id = ?", [u.userid]);
    const de = await h.req("GET", "/api/vine/etv.csv?year=2026", { token: u.token });
    expect((await de.text()).split("\r\n")).toEqual([
      "Bestellnummer,ASIN,Produkt,Bestelldatum,Status,Storniert,ETV,Währung",
      `113-1,B0ETV00001,"'=HYPERLINK(""x"") ""Mug""",2026-02-01,Bestellt,nein,10.00,USD`,
      "113-3,B0ETV00003,Canceled one,2026-03-01,Storniert,ja,99.00,USD",
      '113-2,B0ETV00002,"Lamp, brass",2026-12-31,Bestellt,nein,5.50,USD',
      "Summe 2026 (ohne stornierte Bestellungen),,,,,,15.50,USD",
      "",
    ]);
  });
});

describe("can't-review fields", () => {
  test("saved on the order; a bad reason is refused", async () => {
    const u = await user("UTC");
    const o = await addOrder(u.token, {});
    expect([o.cantreviewreason, o.cantreviewnote, o.reviewexempt]).toEqual([null, null, false]);
    const ok = await json<Order>(
      h.req("PUT", `/api/orders/${o.orderid}`, {
        token: u.token,
        body: {
          cantreviewreason: "removed-from-amazon",
          cantreviewnote: "Listing gone",
          reviewexempt: true,
        },
      }),
    );
    expect([ok.body.cantreviewreason, ok.body.cantreviewnote, ok.body.reviewexempt]).toEqual([
      "removed-from-amazon",
      "Listing gone",
      true,
    ]);
    const bad = await json<{ error: string }>(
      h.req("PUT", `/api/orders/${o.orderid}`, {
        token: u.token,
        body: { cantreviewreason: "lost" },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(
      "Can't-review reason must be one of: not-received, damaged, not-as-described, removed-from-amazon, other, or empty",
    );
    const cleared = await json<Order>(
      h.req("PUT", `/api/orders/${o.orderid}`, {
        token: u.token,
        body: { cantreviewreason: "", reviewexempt: false },
      }),
    );
    expect([cleared.body.cantreviewreason, cleared.body.reviewexempt]).toEqual([null, false]);
  });
});
