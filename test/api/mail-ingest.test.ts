/**
 * The mail ingestion pipeline: raw Amazon-style messages in, orders out,
 * against a real SQLite file and the real orders and notifications services. Messages are written
 * here, modelled on Amazon's 2025 US templates, with the Authentication-Results Gmail adds.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { LiveEvent, Notification, Order } from "../../src/contract/index.ts";
import { createIngestRepo } from "../../src/features/mailbox/ingest.repo.ts";
import {
  createMailIngestService,
  type IngestDeps,
  type MailIngestService,
} from "../../src/features/mailbox/ingest.service.ts";
import { readAmazonMail } from "../../src/mail/amazon/reader.ts";
import { isAmazonSender } from "../../src/mail/amazon/senders.ts";
import { parseMail } from "../../src/mail/parse.ts";
import { AppError } from "../../src/util/errors.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";
import { amazonMail, type MailSpec, plainMail } from "./mail-messages.ts";

let h: Harness;
let mail: MailIngestService;

function service(over: Partial<IngestDeps> = {}): MailIngestService {
  return createMailIngestService({
    repo: createIngestRepo(h.db),
    orders: h.services.orders,
    notify: h.services.notifications.notify,
    events: h.services.events,
    log: h.logger.log,
    parseMail,
    readAmazonMail,
    isAmazonSender,
    ...over,
  });
}

beforeEach(() => {
  h = createHarness();
  mail = service();
});
afterEach(async () => {
  await h.close();
});

const ORDER = "113-4829174-2290611";
const EARBUDS = {
  name: "Wireless Earbuds Pro, Bluetooth 5.3, 40H Playtime",
  asin: "B0EARBUDS1",
  price: "0.00",
};
const CABLE = {
  name: "USB-C to USB-C Cable 6.6ft, 100W Fast Charging",
  asin: "B0CABLE002",
  price: "0.00",
};

const orders = (userId: number): Order[] =>
  h.services.orders.list(userId, { status: "all", q: "", sort: "oldest", limit: 500, offset: 0 })
    .orders;
const ledgerCount = (userId: number) =>
  (
    h.db.$client
      .query("SELECT COUNT(*) AS n FROM processed_messages WHERE user_id = ?")
      .get(userId) as { n: number }
  ).n;
const notificationsOf = (userId: number): Notification[] => h.services.notifications.list(userId);

const ordered = (over: Partial<MailSpec> = {}) =>
  amazonMail({ kind: "ordered", order: ORDER, items: [EARBUDS, CABLE], total: "0.00", ...over });

async function eventsDuring(userId: number, fn: () => Promise<unknown>): Promise<LiveEvent[]> {
  const seen: LiveEvent[] = [];
  const off = h.services.events.subscribe(userId, (e) => seen.push(e));
  try {
    await fn();
  } finally {
    off();
  }
  return seen;
}

describe("order confirmations", () => {
  test("a Vine ($0.00) order mail creates one order per item with the mail's fields", async () => {
    const u = await h.register();
    const r = await mail.ingest(u.userid, ordered({ messageId: "ord-1@amazon.com" }));
    expect(r).toEqual({
      messageKey: "ord-1@amazon.com",
      outcome: "created",
      kind: "ordered",
      ordersCreated: 2,
      ordersUpdated: 0,
      alreadyProcessed: false,
      authentication: "pass",
    });
    const list = orders(u.userid);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      productname: EARBUDS.name,
      asin: "B0EARBUDS1",
      producturl: "https://www.amazon.com/dp/B0EARBUDS1",
      productimage: "https://m.media-amazon.com/images/I/B0EARBUDS1.jpg",
      amazonordernumber: ORDER,
      shiptoaddress: "Jane Doe, SPRINGFIELD, IL",
      expecteddeliverydatetext: expect.stringContaining("Friday, January 17"),
      dateordered: "2025-01-14T15:04:05.000Z",
      status: "Ordered",
      estimatedretailvalue: null,
    });
    expect(list[1]?.asin).toBe("B0CABLE002");
  });

  test("the same message twice (a restart, another folder): nothing new, first outcome returned", async () => {
    const u = await h.register();
    const raw = ordered({ messageId: "dup@amazon.com" });
    await mail.ingest(u.userid, raw);
    const before = JSON.stringify(orders(u.userid));
    const stats = mail.stats(u.userid);
    const again = await service().ingest(u.userid, raw); // a new service instance: a restart
    expect(again).toMatchObject({
      messageKey: "dup@amazon.com",
      outcome: "created",
      ordersCreated: 2,
      alreadyProcessed: true,
    });
    expect(JSON.stringify(orders(u.userid))).toBe(before);
    expect(mail.stats(u.userid)).toEqual(stats);
    expect(ledgerCount(u.userid)).toBe(1);
  });

  test("the same order confirmed again under another Message-ID does not duplicate its orders", async () => {
    const u = await h.register();
    await mail.ingest(u.userid, ordered({ messageId: "a@amazon.com" }));
    const r = await mail.ingest(u.userid, ordered({ messageId: "b@amazon.com" }));
    expect(r.outcome).toBe("unchanged");
    expect(orders(u.userid)).toHaveLength(2);
  });

  test("a message without Message-ID is keyed by the SHA-256 of its bytes", async () => {
    const u = await h.register();
    const raw = ordered({ messageId: null });
    const r = await mail.ingest(u.userid, raw);
    const hex = new Bun.CryptoHasher("sha256").update(raw).digest("hex");
    expect(r.messageKey).toBe(`sha256:${hex}`);
    expect((await mail.ingest(u.userid, new TextEncoder().encode(raw))).alreadyProcessed).toBe(
      true,
    );
  });

  test("a paid order in vine mode is skipped not-vine; in all mode it is created with its price", async () => {
    const u = await h.register();
    const paid = (id: string) =>
      amazonMail({
        kind: "ordered",
        order: "114-0000001-0000001",
        items: [{ name: "Stainless Steel Water Bottle 32oz", asin: "B0BOTTLE01", price: "24.99" }],
        total: "26.74",
        messageId: id,
      });
    expect(mail.stats(u.userid).importMode).toBe("vine");
    const r = await mail.ingest(u.userid, paid("p1@amazon.com"));
    expect(r).toMatchObject({ outcome: "skipped", reason: "not-vine", kind: "ordered" });
    expect(orders(u.userid)).toHaveLength(0);

    mail.setImportMode(u.userid, "all");
    expect(mail.stats(u.userid).importMode).toBe("all");
    const r2 = await mail.ingest(u.userid, paid("p2@amazon.com"));
    expect(r2.outcome).toBe("created");
    expect(orders(u.userid)[0]).toMatchObject({ estimatedretailvalue: "24.99", status: "Ordered" });
  });

  test("kind other (a recommendation mail from Amazon): not-an-order-mail", async () => {
    const u = await h.register();
    const r = await mail.ingest(
      u.userid,
      amazonMail({ kind: "other", messageId: "rec@amazon.com" }),
    );
    expect(r).toMatchObject({ outcome: "skipped", reason: "not-an-order-mail", kind: "other" });
    expect(orders(u.userid)).toHaveLength(0);
  });
});

describe("later mail", () => {
  async function seedOrder(userId: number) {
    await mail.ingest(userId, ordered({ messageId: `seed-${userId}@amazon.com` }));
    return orders(userId);
  }

  test("an old mail's 'Arriving tomorrow' is the day after the mail was written, not after the import", async () => {
    const u = await h.register();
    // A confirmation written on 14 Jan 2025, imported today (a backfill or a file import).
    await mail.ingest(
      u.userid,
      ordered({ messageId: "old-ord@amazon.com", arriving: "Arriving tomorrow" }),
    );
    const [first] = orders(u.userid);
    expect(first?.expecteddeliverydate).toBe("2025-01-15");
    // A later mail's new estimate is read from its own date too.
    await mail.ingest(
      u.userid,
      amazonMail({
        kind: "delayed",
        order: ORDER,
        items: [EARBUDS],
        arriving: "Now arriving tomorrow",
        date: "Mon, 20 Jan 2025 10:00:00 +0000",
        messageId: "old-delay@amazon.com",
      }),
    );
    const [again] = orders(u.userid);
    expect(again?.expecteddeliverydatetext).toContain("tomorrow");
    expect(again?.expecteddeliverydate).toBe("2025-01-21");
  });

  test("shipped: Shipped with tracking number, carrier and the new estimate", async () => {
    const u = await h.register();
    await seedOrder(u.userid);
    const r = await mail.ingest(
      u.userid,
      amazonMail({
        kind: "shipped",
        order: ORDER,
        items: [EARBUDS],
        tracking: "1Z879E930346834440",
        carrier: "UPS",
        arriving: "Arriving Thursday, January 16",
        messageId: "ship@amazon.com",
      }),
    );
    expect(r).toMatchObject({ outcome: "updated", kind: "shipped", ordersUpdated: 1 });
    const [earbuds, cable] = orders(u.userid);
    expect(earbuds).toMatchObject({
      status: "Shipped",
      trackingnumber: "1Z879E930346834440",
      carrier: "UPS",
      expecteddeliverydatetext: expect.stringContaining("Thursday, January 16"),
    });
    expect(earbuds?.expecteddeliverydate).toMatch(/^\d{4}-01-16$/);
    expect(cable?.status).toBe("Ordered");
  });

  test("a shipped mail naming no item updates every item of the order", async () => {
    const u = await h.register();
    await seedOrder(u.userid);
    await mail.ingest(
      u.userid,
      amazonMail({ kind: "shipped", order: ORDER, items: [], messageId: "s2@amazon.com" }),
    );
    expect(orders(u.userid).map((o) => o.status)).toEqual(["Shipped", "Shipped"]);
  });

  test("delivered: Received with the delivery date", async () => {
    const u = await h.register();
    await seedOrder(u.userid);
    await mail.ingest(
      u.userid,
      amazonMail({
        kind: "delivered",
        order: ORDER,
        items: [],
        messageId: "d@amazon.com",
        date: "Sat, 18 Jan 2025 16:20:00 +0000",
      }),
    );
    for (const o of orders(u.userid)) {
      expect(o.status).toBe("Received");
      expect(o.datedelivered).toBe("2025-01-18T16:20:00.000Z");
    }
  });

  test("a late Delivered after Review Submitted changes nothing", async () => {
    const u = await h.register();
    const [a] = await seedOrder(u.userid);
    h.services.orders.update(u.userid, a!.orderid, {
      status: "Review Submitted",
      datedelivered: "2025-01-16T12:00:00.000Z",
    });
    const before = h.services.orders.get(u.userid, a!.orderid);
    const r = await mail.ingest(
      u.userid,
      amazonMail({
        kind: "delivered",
        order: ORDER,
        items: [EARBUDS],
        messageId: "late@amazon.com",
      }),
    );
    expect(r).toMatchObject({ outcome: "unchanged", ordersUpdated: 0 });
    expect(h.services.orders.get(u.userid, a!.orderid)).toEqual(before);
  });

  test("partial cancellation: only the named item is Canceled", async () => {
    const u = await h.register();
    await seedOrder(u.userid);
    const r = await mail.ingest(
      u.userid,
      amazonMail({ kind: "canceled", order: ORDER, items: [CABLE], messageId: "c@amazon.com" }),
    );
    expect(r).toMatchObject({ outcome: "updated", ordersUpdated: 1 });
    expect(orders(u.userid).map((o) => o.status)).toEqual(["Ordered", "Canceled"]);
  });

  test("a cancellation of a Received order changes nothing", async () => {
    const u = await h.register();
    await seedOrder(u.userid);
    await mail.ingest(
      u.userid,
      amazonMail({ kind: "delivered", order: ORDER, items: [], messageId: "d2@amazon.com" }),
    );
    const r = await mail.ingest(
      u.userid,
      amazonMail({ kind: "canceled", order: ORDER, items: [], messageId: "c2@amazon.com" }),
    );
    expect(r.outcome).toBe("unchanged");
    expect(orders(u.userid).map((o) => o.status)).toEqual(["Received", "Received"]);
  });

  test("delayed: only the expected-delivery text changes", async () => {
    const u = await h.register();
    await seedOrder(u.userid);
    await mail.ingest(
      u.userid,
      amazonMail({
        kind: "delayed",
        order: ORDER,
        items: [EARBUDS],
        arriving: "Now expected January 20 - January 22",
        messageId: "late2@amazon.com",
      }),
    );
    const [earbuds] = orders(u.userid);
    expect(earbuds).toMatchObject({
      status: "Ordered",
      expecteddeliverydatetext: expect.stringContaining("January 20 - January 22"),
    });
  });

  test("shipping mail about an unknown order: no-matching-order (vine); all mode creates the named items", async () => {
    const u = await h.register();
    const spec = {
      kind: "shipped",
      order: "115-7777777-7777777",
      items: [EARBUDS],
      tracking: "TBA123456789012",
    } as const;
    const r = await mail.ingest(u.userid, amazonMail({ ...spec, messageId: "u1@amazon.com" }));
    expect(r).toMatchObject({ outcome: "skipped", reason: "no-matching-order" });
    expect(orders(u.userid)).toHaveLength(0);
    mail.setImportMode(u.userid, "all");
    const r2 = await mail.ingest(u.userid, amazonMail({ ...spec, messageId: "u2@amazon.com" }));
    expect(r2.outcome).toBe("created");
    expect(orders(u.userid)[0]).toMatchObject({
      status: "Shipped",
      trackingnumber: "TBA123456789012",
      carrier: "AMAZON",
      dateordered: null,
    });
    // The mail's Date is kept: "ordered today" reads it for an order without an order date.
    const row = h.db.$client
      .query("SELECT mail_date AS mailDate FROM orders WHERE user_id = ?")
      .get(u.userid) as { mailDate: string | null };
    expect(row.mailDate).toBe("2025-01-14T15:04:05.000Z");
  });

  test("the same shipping mail, skipped in vine mode, creates its order once the mode is all; read again, never counted twice", async () => {
    const u = await h.register();
    const shipped = amazonMail({
      kind: "shipped",
      order: "115-8888888-8888888",
      items: [EARBUDS],
      tracking: "TBA123456789099",
      messageId: "again@amazon.com",
    });
    const noItems = amazonMail({
      kind: "delivered",
      order: "115-8888888-0000000",
      items: [],
      messageId: "noitems@amazon.com",
    });
    expect(await mail.ingest(u.userid, shipped)).toMatchObject({ reason: "no-matching-order" });
    expect(await mail.ingest(u.userid, noItems)).toMatchObject({ reason: "no-matching-order" });
    // In vine mode it is read again and skipped again (it may match an order imported since).
    expect(await mail.ingest(u.userid, shipped)).toMatchObject({
      reason: "no-matching-order",
      alreadyProcessed: false,
    });
    expect(mail.setImportMode(u.userid, "all").messages).toBe(1);
    const again = await mail.ingest(u.userid, shipped);
    expect(again).toMatchObject({ outcome: "created", alreadyProcessed: false });
    expect(orders(u.userid)).toHaveLength(1);
    expect(await mail.ingest(u.userid, shipped)).toMatchObject({
      outcome: "created",
      alreadyProcessed: true,
    });
    // A delivery about an order we do not have is read again each time it comes (its order may
    // have arrived since), never counted twice.
    expect(await mail.ingest(u.userid, noItems)).toMatchObject({
      reason: "no-matching-order",
      alreadyProcessed: false,
    });
    expect(orders(u.userid)).toHaveLength(1);
    expect(mail.stats(u.userid).emailsscanned).toBe(2);
  });

  test("an update that found no order applies once its order confirmation was imported", async () => {
    const u = await h.register();
    const delivered = amazonMail({
      kind: "delivered",
      order: ORDER,
      items: [],
      messageId: "early-delivery@amazon.com",
    });
    expect(await mail.ingest(u.userid, delivered)).toMatchObject({ reason: "no-matching-order" });
    await mail.ingest(u.userid, ordered({ messageId: "late-confirmation@amazon.com" }));
    expect(orders(u.userid)[0]?.status).toBe("Ordered");
    expect(await mail.ingest(u.userid, delivered)).toMatchObject({ outcome: "updated" });
    expect(orders(u.userid)[0]?.status).toBe("Received");
    expect((await mail.ingest(u.userid, delivered)).alreadyProcessed).toBe(true);
  });

  test("another user's order with the same number is never touched", async () => {
    const a = await h.register();
    const b = await h.register();
    await seedOrder(b.userid);
    const before = JSON.stringify(orders(b.userid));
    const r = await mail.ingest(
      a.userid,
      amazonMail({ kind: "delivered", order: ORDER, items: [], messageId: "x@amazon.com" }),
    );
    expect(r).toMatchObject({ outcome: "skipped", reason: "no-matching-order" });
    expect(JSON.stringify(orders(b.userid))).toBe(before);
    // ...and the same message for b is b's own first time
    expect(
      (
        await mail.ingest(
          b.userid,
          amazonMail({ kind: "delivered", order: ORDER, items: [], messageId: "x@amazon.com" }),
        )
      ).outcome,
    ).toBe("updated");
  });
});

describe("who sent it", () => {
  test("dkim=fail, dmarc=fail and unsigned 'Amazon' mail are skipped spoofed and create nothing", async () => {
    const u = await h.register();
    const variants = [
      "mx.google.com; dkim=fail header.i=@amazon.com header.b=abc; spf=softfail smtp.mailfrom=x@evil.example; dmarc=fail (p=QUARANTINE) header.from=amazon.com",
      "mx.google.com; dkim=pass header.i=@amazon.com; dmarc=fail (p=REJECT) header.from=amazon.com",
      "mx.google.com; dkim=none (message not signed); spf=pass smtp.mailfrom=x@amazon.com",
    ];
    for (const [i, ar] of variants.entries()) {
      const r = await mail.ingest(
        u.userid,
        ordered({ messageId: `spoof${i}@amazon.com`, auth: ar }),
      );
      expect(r).toMatchObject({ outcome: "skipped", reason: "spoofed", ordersCreated: 0 });
    }
    expect(orders(u.userid)).toHaveLength(0);
    expect(mail.stats(u.userid).emailsscanned).toBe(3);
  });

  test("only the top Authentication-Results counts: a forged pass below a failing one is spoofed", async () => {
    const u = await h.register();
    const raw = ordered({
      messageId: "forged@amazon.com",
      auth: "mx.google.com; dkim=fail header.i=@amazon.com; dmarc=fail header.from=amazon.com",
      extraHeaders: [
        "Authentication-Results: mx.attacker; dkim=pass header.d=amazon.com; dmarc=pass header.from=amazon.com",
      ],
    });
    expect((await mail.ingest(u.userid, raw)).reason).toBe("spoofed");
  });

  test("no Authentication-Results at all (a file exported elsewhere): accepted, marked unverified", async () => {
    const u = await h.register();
    const scan = mail.beginScan(u.userid, "import");
    const r = await mail.ingest(u.userid, ordered({ messageId: "noauth@amazon.com", auth: null }), {
      scan,
    });
    expect(r).toMatchObject({ outcome: "created", authentication: "absent" });
    expect(scan.unverified).toBe(1);
    mail.endScan(scan);
  });

  test("a non-Amazon sender is skipped not-amazon without parsing the body", async () => {
    const u = await h.register();
    let parsed = 0;
    const s = service({
      parseMail: (raw) => {
        parsed++;
        return parseMail(raw);
      },
    });
    const r = await s.ingest(
      u.userid,
      plainMail({
        from: "deals@shop.example",
        subject: "Your order #113-4829174-2290611 shipped",
        messageId: "n@shop.example",
      }),
    );
    expect(r).toMatchObject({ outcome: "skipped", reason: "not-amazon" });
    expect(parsed).toBe(0);
    // look-alike domains are not Amazon's either
    const r2 = await s.ingest(
      u.userid,
      ordered({ messageId: "la@x", from: "auto-confirm@amazon.com.evil.io" }),
    );
    expect(r2.reason).toBe("not-amazon");
    expect(orders(u.userid)).toHaveLength(0);
    expect(mail.stats(u.userid).emailsscanned).toBe(2);
  });

  test("a From that reads two ways (two From headers, or Amazon plus another address) is not Amazon's", async () => {
    const u = await h.register();
    const twoHeaders = ordered({ messageId: "two@x", extraHeaders: ["From: <evil@x.example>"] });
    expect((await mail.ingest(u.userid, twoHeaders)).reason).toBe("not-amazon");
    const twoAddresses = ordered({
      messageId: "pair@x",
      from: "auto-confirm@amazon.com>, <evil@x.example",
    });
    expect((await mail.ingest(u.userid, twoAddresses)).reason).toBe("not-amazon");
    expect(orders(u.userid)).toHaveLength(0);
  });

  test("forwarded Amazon mail is skipped forwarded; a Fwd: of anything else is not-amazon", async () => {
    const u = await h.register();
    const fwd = plainMail({
      from: "jane@gmail.com",
      subject: 'Fwd: Ordered: "Wireless Earbuds Pro..."',
      messageId: "fwd@gmail.com",
      body: `---------- Forwarded message ---------\nFrom: Amazon.com <auto-confirm@amazon.com>\nDate: Tue, Jan 14, 2025\nSubject: Ordered\n\nOrder # ${ORDER}\nOrder Total: $0.00\n`,
    });
    expect(await mail.ingest(u.userid, fwd)).toMatchObject({
      outcome: "skipped",
      reason: "forwarded",
    });
    for (const subject of ["WG: Bestellung", "I: ordine", "FW: order"]) {
      const r = await mail.ingest(
        u.userid,
        plainMail({
          from: "a@b.example",
          subject,
          messageId: `${subject}@b`,
          body: "From: Shop <x@shop.example>\n",
        }),
      );
      expect(r.reason).toBe("not-amazon");
    }
    expect(orders(u.userid)).toHaveLength(0);
  });
});

describe("scans, counters, notifications and events", () => {
  test("one summary notification per scan, none when nothing changed; counters and a user event", async () => {
    const u = await h.register();
    let summary!: ReturnType<MailIngestService["endScan"]>;
    const events = await eventsDuring(u.userid, async () => {
      const scan = mail.beginScan(u.userid, "backfill");
      await mail.ingest(u.userid, ordered({ messageId: "n1@amazon.com" }), { scan });
      await mail.ingest(
        u.userid,
        amazonMail({
          kind: "ordered",
          order: "116-1111111-1111111",
          items: [{ name: "Bamboo Cutting Board Set", asin: "B0BAMBOO01", price: "0.00" }],
          total: "0.00",
          messageId: "n2@amazon.com",
        }),
        { scan },
      );
      await mail.ingest(
        u.userid,
        amazonMail({ kind: "delivered", order: ORDER, items: [], messageId: "n3@amazon.com" }),
        { scan },
      );
      await mail.ingest(u.userid, ordered({ messageId: "n1@amazon.com" }), { scan }); // duplicate
      await mail.ingest(
        u.userid,
        plainMail({ from: "x@y.example", subject: "hi", messageId: "n4@y" }),
        { scan },
      );
      expect(notificationsOf(u.userid)).toHaveLength(0); // not per message
      summary = mail.endScan(scan);
      expect(mail.endScan(scan)).toEqual(summary); // ending twice sends nothing more
    });
    // Orders are counted as orders; messages in exactly one bucket each, adding up to 5.
    expect(summary).toEqual({
      messagesRead: 5,
      ordersCreated: 3,
      ordersUpdated: 2,
      messages: { created: 2, updated: 1, unchanged: 0, notUnderstood: 0, skipped: 2 },
      skipped: { duplicate: 1, "not-amazon": 1 },
      notUnderstoodByMarketplace: {},
      modeLimited: 0,
      importMode: "vine",
      otherByMarketplace: {},
    });
    const notes = notificationsOf(u.userid);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.level).toBe("information");
    expect(notes[0]?.message).toContain("<strong>3 new orders</strong> from your mail: ");
    expect(notes[0]?.message).toContain("Bamboo Cutting Board Set");
    expect(notes[0]?.message).toContain("2 delivered");
    expect(events.filter((e) => e.type === "mailbox.scanned")).toHaveLength(1);
    expect(events.filter((e) => e.table === "order").length).toBeGreaterThanOrEqual(5);
    expect(events.filter((e) => e.table === "notification")).toHaveLength(1);

    const stats = mail.stats(u.userid);
    expect(stats.emailsscanned).toBe(4); // the duplicate is not counted again
    expect(Date.now() - Date.parse(stats.lastprocessedtime!)).toBeLessThan(60_000);

    const quiet = mail.beginScan(u.userid, "imap");
    await mail.ingest(
      u.userid,
      plainMail({ from: "x@y.example", subject: "hello", messageId: "q@y" }),
      { scan: quiet },
    );
    await mail.ingest(u.userid, ordered({ messageId: "n1@amazon.com" }), { scan: quiet });
    expect(mail.endScan(quiet)).toMatchObject({
      messagesRead: 2,
      ordersCreated: 0,
      ordersUpdated: 0,
    });
    expect(notificationsOf(u.userid)).toHaveLength(1);
  });

  test("product names in the notification are escaped", async () => {
    const u = await h.register();
    await mail.ingest(
      u.userid,
      amazonMail({
        kind: "ordered",
        order: ORDER,
        items: [
          { name: "Mug <img src=x onerror=alert(1)> & Co", asin: "B0XSSXSS01", price: "0.00" },
        ],
        total: "0.00",
        messageId: "xss@amazon.com",
      }),
    );
    const [n] = notificationsOf(u.userid);
    expect(n?.message).not.toContain("<img");
    expect(n?.message).toContain("&lt;img");
  });

  test("ingest without a scan is a scan of one message (one notification)", async () => {
    const u = await h.register();
    await mail.ingest(u.userid, ordered({ messageId: "solo@amazon.com" }));
    expect(notificationsOf(u.userid)).toHaveLength(1);
  });
});

describe("failures", () => {
  test("a database failure throws and records nothing (the caller must not mark the message)", async () => {
    const u = await h.register();
    const s = service({
      orders: {
        ...h.services.orders,
        create: () => {
          throw new Error("SQLITE_FULL: database or disk is full");
        },
      },
    });
    await expect(s.ingest(u.userid, ordered({ messageId: "full@amazon.com" }))).rejects.toThrow(
      "SQLITE_FULL",
    );
    expect(ledgerCount(u.userid)).toBe(0);
    expect(mail.stats(u.userid).emailsscanned).toBe(0);
    // once the disk has room again, the message is read for real
    expect((await mail.ingest(u.userid, ordered({ messageId: "full@amazon.com" }))).outcome).toBe(
      "created",
    );
  });

  test("a value the orders service refuses rolls the whole message back: skipped unreadable", async () => {
    const u = await h.register();
    let calls = 0;
    const s = service({
      orders: {
        ...h.services.orders,
        create: (userId, body) => {
          if (++calls === 2) throw new AppError(400, "estimated_value_amount");
          return h.services.orders.create(userId, body);
        },
      },
    });
    const r = await s.ingest(u.userid, ordered({ messageId: "bad@amazon.com" }));
    expect(r).toMatchObject({ outcome: "skipped", reason: "unreadable", ordersCreated: 0 });
    expect(orders(u.userid)).toHaveLength(0); // the first item's order was rolled back too
    expect(ledgerCount(u.userid)).toBe(1);
  });

  test("a reader that throws, or garbage bytes: skipped unreadable, never thrown", async () => {
    const u = await h.register();
    const s = service({
      readAmazonMail: () => {
        throw new RangeError("boom");
      },
    });
    expect((await s.ingest(u.userid, ordered({ messageId: "t@amazon.com" }))).reason).toBe(
      "unreadable",
    );
    const junk = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    const r = await mail.ingest(u.userid, junk);
    expect(r.outcome).toBe("skipped");
  });

  test("two passes racing on the same message apply it once", async () => {
    const u = await h.register();
    const raw = ordered({ messageId: "race@amazon.com" });
    const [a, b] = await Promise.all([mail.ingest(u.userid, raw), service().ingest(u.userid, raw)]);
    expect([a.alreadyProcessed, b.alreadyProcessed].sort()).toEqual([false, true]);
    expect(orders(u.userid)).toHaveLength(2);
    expect(ledgerCount(u.userid)).toBe(1);
  });
});

describe("a batch (ingestMany: one transaction, a savepoint per message)", () => {
  const order = (n: number, over: Partial<MailSpec> = {}) =>
    amazonMail({
      kind: "ordered",
      order: `113-0000000-00000${String(n).padStart(2, "0")}`,
      items: [
        { name: `Batch Item ${n}`, asin: `B0BATCH0${String(n).padStart(2, "0")}`, price: "0.00" },
      ],
      total: "0.00",
      messageId: `batch-${n}@amazon.com`,
      ...over,
    });
  const snapshot = (userId: number) => ({
    orders: orders(userId).map((o) => [o.amazonordernumber, o.productname, o.status]),
    ledger: h.db.$client
      .query(
        "SELECT message_key AS k, outcome, reason FROM processed_messages WHERE user_id = ? ORDER BY rowid",
      )
      .all(userId),
    scanned: mail.stats(userId).emailsscanned,
  });

  test("gives what ingesting each message in turn gives: orders, ledger, results, one summary", async () => {
    const a = await h.register();
    const b = await h.register();
    const raws = [
      order(1),
      order(2),
      order(1), // the same message again within the batch
      amazonMail({
        kind: "shipped",
        order: "113-0000000-0000001",
        items: [],
        tracking: "1Z999AA10123456784",
        carrier: "UPS",
        messageId: "batch-ship-1@amazon.com",
      }),
      plainMail({ from: "friend@example.com", subject: "lunch?", messageId: "lunch@x" }),
      order(3, {
        auth: "mx.google.com; dkim=fail header.i=@amazon.com; dmarc=fail header.from=amazon.com",
      }),
    ];
    const one: unknown[] = [];
    const scanA = mail.beginScan(a.userid, "backfill");
    for (const raw of raws) one.push(await mail.ingest(a.userid, raw, { scan: scanA }));
    const scanB = mail.beginScan(b.userid, "backfill");
    const many = await mail.ingestMany(b.userid, raws, { scan: scanB });

    expect(many.failed).toBeNull();
    const strip = (r: unknown) => ({ ...(r as object), messageKey: undefined });
    expect(many.results.map(strip)).toEqual(one.map(strip));
    expect(many.results.map((r) => r.outcome)).toEqual([
      "created",
      "created",
      "created", // alreadyProcessed: the first outcome
      "updated",
      "skipped",
      "skipped",
    ]);
    expect(many.results[2]!.alreadyProcessed).toBe(true);
    expect(snapshot(b.userid)).toEqual(snapshot(a.userid));
    expect(mail.endScan(scanB)).toEqual(mail.endScan(scanA));
    expect(notificationsOf(b.userid).map((n) => n.message)).toEqual(
      notificationsOf(a.userid).map((n) => n.message),
    );
  });

  test("a value the orders service refuses rolls back that message alone", async () => {
    const u = await h.register();
    const s = service({
      orders: {
        ...h.services.orders,
        create: (userId, body) => {
          if (body.productname === "Batch Item 2b")
            throw new AppError(400, "estimated_value_amount");
          return h.services.orders.create(userId, body);
        },
      },
    });
    // Message 2 has two items: the first is inserted, the second refused; both must go.
    const two = order(2, {
      items: [
        { name: "Batch Item 2", asin: "B0BATCH002", price: "0.00" },
        { name: "Batch Item 2b", asin: "B0BATCH02B", price: "0.00" },
      ],
    });
    const r = await s.ingestMany(u.userid, [order(1), two, order(3)]);
    expect(r.failed).toBeNull();
    expect(r.results.map((x) => x.reason ?? x.outcome)).toEqual([
      "created",
      "unreadable",
      "created",
    ]);
    expect(orders(u.userid).map((o) => o.productname)).toEqual(["Batch Item 1", "Batch Item 3"]);
    expect(ledgerCount(u.userid)).toBe(3);
  });

  test("a database failure on one message: those before it commit, it and those after record nothing", async () => {
    const u = await h.register();
    let full = true;
    const s = service({
      orders: {
        ...h.services.orders,
        create: (userId, body) => {
          if (full && body.productname === "Batch Item 3")
            throw new Error("SQLITE_FULL: database or disk is full");
          return h.services.orders.create(userId, body);
        },
      },
    });
    const scan = s.beginScan(u.userid, "backfill");
    const r = await s.ingestMany(u.userid, [order(1), order(2), order(3), order(4)], { scan });
    expect(r.failed?.index).toBe(2);
    expect(String(r.failed?.error)).toContain("SQLITE_FULL");
    expect(r.results.map((x) => x.outcome)).toEqual(["created", "created"]);
    expect(orders(u.userid).map((o) => o.productname)).toEqual(["Batch Item 1", "Batch Item 2"]);
    expect(ledgerCount(u.userid)).toBe(2);
    expect(s.stats(u.userid).emailsscanned).toBe(2);
    expect(s.endScan(scan)).toMatchObject({ messagesRead: 2, ordersCreated: 2 });
    // The next pass starts at the failed message: it and the one after it land, once each.
    full = false;
    const again = await s.ingestMany(u.userid, [order(3), order(4)]);
    expect(again.results.map((x) => x.outcome)).toEqual(["created", "created"]);
    expect(orders(u.userid)).toHaveLength(4);
  });

  test("batcher: batches of 15 messages (or 8 MB), the rest on flush; a failure throws there", async () => {
    const u = await h.register();
    const sizes: number[] = [];
    const real = mail.ingestMany;
    mail.ingestMany = (userId, raws, opts) => {
      sizes.push(raws.length);
      return real(userId, raws, opts);
    };
    const scan = mail.beginScan(u.userid, "import");
    const batch = mail.batcher(u.userid, scan);
    const enc = new TextEncoder();
    for (let n = 1; n <= 40; n++) await batch.add(enc.encode(order(n)));
    expect(sizes).toEqual([15, 15]);
    await batch.flush();
    expect(sizes).toEqual([15, 15, 10]);
    // Large messages close a batch by bytes: 3 of 3 MB each are over 8 MB.
    const big = (n: number) => enc.encode(order(n, { padding: 3 * 1024 * 1024 }));
    for (let n = 41; n <= 43; n++) await batch.add(big(n));
    expect(sizes).toEqual([15, 15, 10, 3]);
    expect(mail.endScan(scan)).toMatchObject({ messagesRead: 43, ordersCreated: 43 });

    const s = service({
      orders: {
        ...h.services.orders,
        create: (userId, body) => {
          if (body.productname === "Batch Item 52") throw new Error("SQLITE_IOERR: disk I/O error");
          return h.services.orders.create(userId, body);
        },
      },
    });
    const b2 = s.batcher(u.userid, s.beginScan(u.userid, "import"));
    for (let n = 50; n <= 53; n++) await b2.add(enc.encode(order(n)));
    await expect(b2.flush()).rejects.toThrow("SQLITE_IOERR");
    expect(
      orders(u.userid)
        .map((o) => o.productname)
        .slice(-2),
    ).toEqual(["Batch Item 50", "Batch Item 51"]);
  });

  test("a failure while reading stops the batch there; what was read before it commits", async () => {
    const u = await h.register();
    const s = service({
      parseMail: (raw) => {
        if (new TextDecoder().decode(raw).includes("batch-2@amazon.com"))
          throw new Error("out of memory (simulated)");
        return parseMail(raw);
      },
    });
    const r = await s.ingestMany(u.userid, [order(1), order(2), order(3)]);
    // A parser that throws is bad mail (skipped unreadable), not a failure of the batch.
    expect(r.failed).toBeNull();
    expect(r.results.map((x) => x.reason ?? x.outcome)).toEqual([
      "created",
      "unreadable",
      "created",
    ]);
  });
});

describe("wiring", () => {
  test("services.mailIngest is the pipeline; /api/user/data shows its counters", async () => {
    const u = await h.register();
    await h.services.mailIngest.ingest(
      u.userid,
      plainMail({ from: "x@y.example", subject: "hi", messageId: "w@y" }),
    );
    const { status, body } = await call<{
      emailsscanned: number;
      lastprocessedtime: string | null;
    }>(h, "GET", "/api/user/data", { token: u.token });
    expect(status).toBe(200);
    expect(body.emailsscanned).toBe(1);
    expect(body.lastprocessedtime).not.toBeNull();
    const exp = await call<{
      mail: {
        emailsscanned: number;
        importMode: string;
        processedMessages: Record<string, number>;
      };
    }>(h, "GET", "/api/user/export", { token: u.token });
    expect(exp.body.mail).toMatchObject({
      emailsscanned: 1,
      importMode: "vine",
      processedMessages: { skipped: 1 },
    });
  });
});
