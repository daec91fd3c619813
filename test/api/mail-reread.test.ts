/**
 * Mail the reader did not understand and summaries that add up, through POST /api/imap/import:
 * - an order confirmation whose total cannot be read is "not understood" in "Vine orders only":
 *   never taken for paid, never made an order; "All Amazon orders" creates it;
 * - every message is in exactly one bucket of the summary;
 * - after a reader upgrade (the version raised through the services' `mail` override, the newer
 *   reader given beside it), importing the same files again reads the not-understood and
 *   incomplete messages again: what was missing is filled in, what the user typed stays.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { IngestSummary, Order } from "../../src/contract/index.ts";
import { readAmazonMail } from "../../src/mail/amazon/reader.ts";
import type { MailFacts, MailMessage } from "../../src/mail/amazon/types.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call, type ErrorBody } from "./helpers.ts";
import { amazonMail, plainMail } from "./mail-messages.ts";

/**
 * The reader as the test wants it: `version` is READER_VERSION as the pipeline sees it;
 * `reader` is what reads at that version (today's reader unless a test replaces it).
 */
const upgrade = {
  version: 1,
  reader: (m: MailMessage): MailFacts => readAmazonMail(m),
};
let h: Harness;
function harness(): Harness {
  upgrade.version = 1;
  upgrade.reader = (m) => readAmazonMail(m);
  h = createHarness(
    {},
    { mail: { readerVersion: () => upgrade.version, readAmazonMail: (m) => upgrade.reader(m) } },
  );
  return h;
}
afterEach(async () => {
  await h?.close();
});

const orders = (userId: number): Order[] =>
  h.services.orders.list(userId, { status: "all", q: "", sort: "oldest", limit: 500, offset: 0 })
    .orders;

function mbox(messages: string[]): string {
  return messages
    .map((m, i) => {
      const body = m.replace(/\r\n/g, "\n").replace(/^(>*From )/gm, ">$1");
      return `From 18${String(i).padStart(17, "0")}@xxx Tue Jan 14 15:04:0${i % 10} +0000 2025\n${body}\n`;
    })
    .join("");
}

async function importFiles(token: string, files: [string, string][]) {
  const fd = new FormData();
  for (const [name, content] of files) fd.append("files", new File([content], name));
  const r = await call<IngestSummary & Partial<ErrorBody>>(h, "POST", "/api/imap/import", {
    token,
    raw: fd,
  });
  expect(r.status).toBe(200);
  return r.body;
}

/** The buckets add up to the messages read, and `skipped` to its bucket. */
function expectAddsUp(s: IngestSummary) {
  const b = s.messages;
  expect(b.created + b.updated + b.unchanged + b.notUnderstood + b.skipped).toBe(s.messagesRead);
  expect(Object.values(s.skipped).reduce<number>((a, n) => a + (n ?? 0), 0)).toBe(b.skipped);
  expect(
    Object.values(s.notUnderstoodByMarketplace).reduce<number>((a, n) => a + (n ?? 0), 0),
  ).toBe(b.notUnderstood);
}

/** An order confirmation that shows no total and no item price: the Vine rule cannot be decided. */
const noTotal = (order: string, id: string, name = "Mystery Gadget") =>
  amazonMail({
    kind: "ordered",
    order,
    items: [{ name, asin: "B0NOTOTAL1", price: null }],
    messageId: id,
  });

/** The newer reader of these tests: it reads the total today's reader missed as 0.00 (Vine). */
const readsTheTotal = (m: MailMessage): MailFacts => {
  const f = readAmazonMail(m);
  return { ...f, orders: f.orders.map((o) => ({ ...o, total: o.total ?? "0.00" })), unread: [] };
};

describe("an order confirmation whose total cannot be read", () => {
  test("Vine orders only: not understood (no order, not paid, counted by marketplace); recorded with the reader version", async () => {
    const u = await harness().register();
    const s = await importFiles(u.token, [["a.eml", noTotal("111-0000000-0000901", "nt1@x")]]);
    expect(s).toMatchObject({
      messagesRead: 1,
      ordersCreated: 0,
      messages: { notUnderstood: 1, skipped: 0 },
      notUnderstoodByMarketplace: { US: 1 },
      skipped: {},
      modeLimited: 0,
    });
    expectAddsUp(s);
    expect(orders(u.userid)).toEqual([]);
    const row = h.db.$client
      .query(
        "SELECT outcome, reason, reader_version, unread, mode_limited FROM processed_messages WHERE user_id = ?",
      )
      .get(u.userid);
    expect(row).toEqual({
      outcome: "skipped",
      reason: "not-understood",
      reader_version: 1,
      unread: "total",
      mode_limited: 0,
    });
    // The scan's notification says so.
    const notes = h.services.notifications.list(u.userid);
    expect(notes.map((n) => n.message)).toEqual([
      "1 email from Amazon was not understood (US 1); it is read again when Grapevine&#39;s mail reader is updated.",
    ]);
    // Imported again with the same reader: a duplicate, nothing changes.
    const again = await importFiles(u.token, [["a.eml", noTotal("111-0000000-0000901", "nt1@x")]]);
    expect(again).toMatchObject({ messages: { skipped: 1 }, skipped: { duplicate: 1 } });
  });

  test("All Amazon orders: the order is created (no Vine decision is needed)", async () => {
    const u = await harness().register();
    await h.req("PUT", "/api/imap/import-mode", { token: u.token, body: { importMode: "all" } });
    const s = await importFiles(u.token, [["a.eml", noTotal("111-0000000-0000902", "nt2@x")]]);
    expect(s).toMatchObject({ ordersCreated: 1, messages: { created: 1, notUnderstood: 0 } });
    expect(orders(u.userid).map((o) => o.amazonordernumber)).toEqual(["111-0000000-0000902"]);
  });

  test("kind other flagged unread kind: not understood, counted by marketplace, not 'not about an order'", async () => {
    const u = await harness().register();
    upgrade.reader = (m) => ({ ...readAmazonMail(m), unread: ["kind"] });
    const other = amazonMail({ kind: "other", messageId: "o1@x", from: "auto-confirm@amazon.com" });
    const s = await importFiles(u.token, [["o.eml", other]]);
    expect(s).toMatchObject({
      messages: { notUnderstood: 1 },
      notUnderstoodByMarketplace: { US: 1 },
      skipped: {},
      otherByMarketplace: {},
    });
  });
});

describe("summaries add up", () => {
  test("an mbox with created, updated, unchanged, not understood, skipped and duplicate mail: every message in one bucket", async () => {
    const u = await harness().register();
    const A = "111-0000000-0000911";
    const vine = amazonMail({
      kind: "ordered",
      order: A,
      items: [
        { name: "Bamboo Tray", asin: "B0BAMBOO01", price: "0.00" },
        { name: "Linen Napkins", asin: "B0LINEN001", price: "0.00" },
      ],
      total: "0.00",
      messageId: "s1@x",
    });
    const box = mbox([
      vine, // created (2 orders)
      amazonMail({
        kind: "shipped",
        order: A,
        items: [],
        messageId: "s2@x",
        tracking: "TBA123456789000",
      }), // updated (2 orders)
      amazonMail({
        kind: "shipped",
        order: A,
        items: [],
        messageId: "s3@x",
        tracking: "TBA123456789000",
      }), // unchanged
      noTotal("111-0000000-0000912", "s4@x"), // not understood
      amazonMail({
        kind: "ordered",
        order: "111-0000000-0000913",
        items: [{ name: "Paid Kettle", asin: "B0KETTLE01", price: "39.99" }],
        total: "42.79",
        messageId: "s5@x",
      }), // skipped not-vine
      plainMail({ from: "news@shop.example", subject: "News", messageId: "s6@x" }), // not-amazon
      vine, // duplicate
    ]);
    const s = await importFiles(u.token, [["takeout.mbox", box]]);
    expect(s).toMatchObject({
      messagesRead: 7,
      ordersCreated: 2,
      ordersUpdated: 2,
      messages: { created: 1, updated: 1, unchanged: 1, notUnderstood: 1, skipped: 3 },
      skipped: { "not-vine": 1, "not-amazon": 1, duplicate: 1 },
      modeLimited: 1,
      importMode: "vine",
    });
    expectAddsUp(s);
  });
});

describe("read again after a reader upgrade (files imported again)", () => {
  test("a not-understood confirmation becomes the Vine order it is; counted once in Emails Scanned", async () => {
    const u = await harness().register();
    const raw = noTotal("111-0000000-0000921", "r1@x", "Walnut Desk Organizer");
    expect((await importFiles(u.token, [["a.eml", raw]])).messages.notUnderstood).toBe(1);
    expect(h.services.mailIngest.rereadDue(u.userid).messages).toBe(0);

    upgrade.version = 2;
    upgrade.reader = readsTheTotal;
    // Until the files come again (or the mailbox is re-read), they are due.
    expect(h.services.mailIngest.rereadDue(u.userid)).toEqual({ messages: 1, daysBack: 180 });
    const s = await importFiles(u.token, [["a.eml", raw]]);
    expect(s).toMatchObject({ messagesRead: 1, ordersCreated: 1, messages: { created: 1 } });
    expectAddsUp(s);
    expect(orders(u.userid).map((o) => o.productname)).toEqual(["Walnut Desk Organizer"]);
    expect(h.services.mailIngest.stats(u.userid).emailsscanned).toBe(1);
    const row = h.db.$client
      .query("SELECT outcome, reader_version, unread FROM processed_messages WHERE user_id = ?")
      .get(u.userid);
    expect(row).toEqual({ outcome: "created", reader_version: 2, unread: null });
    // Read by today's reader: plainly a duplicate now.
    expect((await importFiles(u.token, [["a.eml", raw]])).skipped).toEqual({ duplicate: 1 });
    expect(orders(u.userid)).toHaveLength(1);
  });

  test("an order read incompletely gets what was missing; what the user typed stays", async () => {
    const u = await harness().register();
    const raw = amazonMail({
      kind: "ordered",
      order: "111-0000000-0000931",
      items: [{ name: "Cast Iron Skillet 10 inch", asin: "B0SKILLET1", price: "0.00" }],
      total: "0.00",
      arriving: "Arriving Friday, January 17",
      messageId: "r2@x",
    });
    // Version 1 missed the delivery estimate and the picture (and said so).
    upgrade.reader = (m) => {
      const f = readAmazonMail(m);
      return {
        ...f,
        orders: f.orders.map((o) => ({
          ...o,
          expecteddeliverydatetext: null,
          items: o.items.map((i) => ({ ...i, productimage: null })),
        })),
        unread: ["delivery-date"],
      };
    };
    const first = await importFiles(u.token, [["a.eml", raw]]);
    expect(first.messages.created).toBe(1);
    const [created] = orders(u.userid);
    expect(created).toMatchObject({ expecteddeliverydatetext: null, productimage: null });

    // The user types a name and an expected delivery of their own.
    const put = await h.req("PUT", `/api/orders/${created!.orderid}`, {
      token: u.token,
      body: {
        productname: "Grandma's skillet",
        expecteddeliverydatetext: "Next week, says Amazon",
      },
    });
    expect(put.status).toBe(200);

    upgrade.version = 2;
    upgrade.reader = (m) => readAmazonMail(m);
    const s = await importFiles(u.token, [["a.eml", raw]]);
    expect(s).toMatchObject({ messagesRead: 1, ordersCreated: 0, ordersUpdated: 1 });
    expectAddsUp(s);
    const [after] = orders(u.userid);
    expect(after).toMatchObject({
      orderid: created!.orderid,
      productname: "Grandma's skillet",
      expecteddeliverydatetext: "Next week, says Amazon",
      productimage: "https://m.media-amazon.com/images/I/B0SKILLET1.jpg",
    });
    expect(orders(u.userid)).toHaveLength(1);
  });

  test("a message read completely is not read again after an upgrade", async () => {
    const u = await harness().register();
    const raw = amazonMail({
      kind: "ordered",
      order: "111-0000000-0000941",
      items: [{ name: "Complete Thing", asin: "B0COMPLETE", price: "0.00" }],
      total: "0.00",
      messageId: "r3@x",
    });
    await importFiles(u.token, [["a.eml", raw]]);
    upgrade.version = 2;
    expect(h.services.mailIngest.rereadDue(u.userid).messages).toBe(0);
    expect((await importFiles(u.token, [["a.eml", raw]])).skipped).toEqual({ duplicate: 1 });
  });
});
