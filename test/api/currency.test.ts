/**
 * Money in its own currency: orders' ISO 4217 currency on POST/PUT, the user's Vine
 * marketplace (set by hand or learnt from the first Amazon mail), mail orders in their
 * marketplace's currency, the Vine rule for every marketplace's way of writing zero, and the
 * migration that gives existing orders the currency of their marketplace.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import type { IngestSummary, Order, UserData } from "../../src/contract/index.ts";
import { MARKETPLACE_CURRENCY } from "../../src/contract/index.ts";
import { createIngestRepo } from "../../src/features/mailbox/ingest.repo.ts";
import { createMailIngestService } from "../../src/features/mailbox/ingest.service.ts";
import { readAmazonMail } from "../../src/mail/amazon/reader.ts";
import { isAmazonSender } from "../../src/mail/amazon/senders.ts";
import { parseMail } from "../../src/mail/parse.ts";
import { LOCALE_CASES } from "../fixtures/mail/locale-cases.ts";
import { raw } from "../fixtures/mail/locales.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const list = (userId: number): Order[] =>
  h.services.orders.list(userId, { status: "all", q: "", sort: "oldest", limit: 500, offset: 0 })
    .orders;

const userData = async (token: string) =>
  (await call<UserData>(h, "GET", "/api/user/data", { token })).body;

describe("orders carry an ISO 4217 currency", () => {
  test("POST without one: the user's Vine marketplace's; with one: that one; PUT changes it", async () => {
    const u = await h.register();
    const post = (body: Record<string, unknown>) =>
      call<Order>(h, "POST", "/api/orders", {
        token: u.token,
        body: { productname: "Kettle", asin: "B0KETTLE01", estimatedretailvalue: "19.99", ...body },
      });
    expect((await post({})).body.currency).toBe("USD");
    const pounds = await post({ currency: "GBP" });
    expect(pounds.res.status).toBe(201);
    expect(pounds.body).toMatchObject({ currency: "GBP", estimatedretailvalue: "19.99" });

    const set = await call(h, "PUT", "/api/user/marketplace", {
      token: u.token,
      body: { vineMarketplace: "JP" },
    });
    expect(set.res.status).toBe(200);
    expect(set.body).toMatchObject({ vineMarketplace: "JP", currency: "JPY" });
    expect(await userData(u.token)).toMatchObject({
      vineMarketplace: "JP",
      vineMarketplaceSet: true,
    });
    // Yen has no decimals: a whole amount.
    expect((await post({ estimatedretailvalue: "1999" })).body).toMatchObject({
      currency: "JPY",
      estimatedretailvalue: "1999",
    });

    const put = await call<Order>(h, "PUT", `/api/orders/${pounds.body.orderid}`, {
      token: u.token,
      body: { currency: "EUR" },
    });
    expect(put.res.status).toBe(200);
    expect(put.body.currency).toBe("EUR");
    expect(list(u.userid).map((o) => o.currency)).toEqual(["USD", "EUR", "JPY"]);
  });

  test.each([["EURO"], ["eur"], ["€"], ["XXX"], ["ABC"], [""], [12]])(
    "currency %p is a 400 that names the rule, and changes nothing",
    async (currency) => {
      const u = await h.register();
      const bad = await call<{ error: string }>(h, "POST", "/api/orders", {
        token: u.token,
        body: { productname: "Kettle", asin: "B0KETTLE01", currency },
      });
      expect(bad.res.status).toBe(400);
      expect(bad.body.error).toBe("Currency must be an ISO 4217 code such as USD, EUR, GBP or JPY");
      expect(list(u.userid)).toHaveLength(0);

      const ok = await call<Order>(h, "POST", "/api/orders", {
        token: u.token,
        body: { productname: "Kettle", asin: "B0KETTLE01", currency: "CAD" },
      });
      const put = await call<{ error: string }>(h, "PUT", `/api/orders/${ok.body.orderid}`, {
        token: u.token,
        body: { currency },
      });
      expect(put.res.status).toBe(400);
      expect(list(u.userid)[0]?.currency).toBe("CAD");
    },
  );

  test("an unknown marketplace is a 400 listing the ones there are", async () => {
    const u = await h.register();
    const bad = await call<{ error: string }>(h, "PUT", "/api/user/marketplace", {
      token: u.token,
      body: { vineMarketplace: "NL" },
    });
    expect(bad.res.status).toBe(400);
    expect(bad.body.error).toBe(
      "vineMarketplace must be one of: US, UK, DE, FR, IT, ES, JP, CA, AU",
    );
    expect(await userData(u.token)).toMatchObject({
      vineMarketplace: "US",
      vineMarketplaceSet: false,
    });
  });

  test("the export keeps each order's currency and the user's marketplace", async () => {
    const u = await h.register();
    await call(h, "POST", "/api/orders", {
      token: u.token,
      body: { productname: "Kettle", asin: "B0KETTLE01", currency: "AUD" },
    });
    await call(h, "PUT", "/api/user/marketplace", {
      token: u.token,
      body: { vineMarketplace: "AU" },
    });
    const doc = (
      await call<Record<string, unknown>>(h, "GET", "/api/user/export", { token: u.token })
    ).body as { user: { vineMarketplace: string }; orders: Order[] };
    expect(doc.user.vineMarketplace).toBe("AU");
    expect(doc.orders.map((o) => o.currency)).toEqual(["AUD"]);
  });
});

describe("mail: every marketplace's orders in its currency; the Vine rule in every format", () => {
  const ingest = () =>
    createMailIngestService({
      repo: createIngestRepo(h.db),
      orders: h.services.orders,
      notify: h.services.notifications.notify,
      events: h.services.events,
      log: h.logger.log,
      parseMail,
      readAmazonMail,
      isAmazonSender,
    });

  test("Vine confirmations ($0 in each format) become orders in their currency; paid ones do not", async () => {
    const u = await h.register();
    const mail = ingest();
    const vine = LOCALE_CASES.filter((c) => c.id.endsWith("-ordered"));
    const paid = LOCALE_CASES.filter((c) => c.id.endsWith("-ordered-paid-multi"));
    // The zero of every marketplace, as its mail writes it.
    expect(new Set(vine.map((c) => c.total))).toEqual(
      new Set(["$0.00", "£0.00", "0,00 €", "￥0", "CDN$ 0.00", "0,00 $", "A$0.00"]),
    );
    for (const c of paid) {
      const r = await mail.ingest(u.userid, Buffer.from(raw(c), "utf8"));
      expect({ id: c.id, outcome: r.outcome, reason: r.reason }).toEqual({
        id: c.id,
        outcome: "skipped",
        reason: "not-vine",
      });
    }
    for (const c of vine) {
      const r = await mail.ingest(u.userid, Buffer.from(raw(c), "utf8"));
      expect({ id: c.id, outcome: r.outcome }).toEqual({ id: c.id, outcome: "created" });
    }
    const got = list(u.userid).map((o) => [o.amazonordernumber, o.currency, o.producturl]);
    expect(got).toEqual(
      vine.map((c) => [
        c.orders[0]?.number ?? null,
        MARKETPLACE_CURRENCY[c.marketplace],
        `https://${c.host}/dp/${c.orders[0]?.items[0]?.asin}`,
      ]),
    );
    // The first of those mails (US) set the user's marketplace; later ones did not change it.
    expect((await userData(u.token)).vineMarketplace).toBe("US");
  });

  test("the first Amazon mail of a known marketplace decides the user's; a hand choice stays", async () => {
    const u = await h.register();
    const mail = ingest();
    const fr = LOCALE_CASES.find((c) => c.id === "fr-ordered");
    const it = LOCALE_CASES.find((c) => c.id === "it-ordered");
    if (!fr || !it) throw new Error("cases");
    await mail.ingest(u.userid, Buffer.from(raw(fr), "utf8"));
    expect(await userData(u.token)).toMatchObject({
      vineMarketplace: "FR",
      vineMarketplaceSet: true,
    });
    await call(h, "PUT", "/api/user/marketplace", {
      token: u.token,
      body: { vineMarketplace: "DE" },
    });
    await mail.ingest(u.userid, Buffer.from(raw(it), "utf8"));
    expect((await userData(u.token)).vineMarketplace).toBe("DE");
  });

  test("mail in a language the reader does not know is counted by marketplace", async () => {
    const u = await h.register();
    const mail = ingest();
    const de = LOCALE_CASES.find((c) => c.id === "de-ordered");
    if (!de) throw new Error("case");
    const scan = mail.beginScan(u.userid, "import");
    // Not an order sender (an order sender's mail with an order number is an
    // order mail in any language), and no phrase the reader knows.
    const dutch = raw({
      ...de,
      id: "nl-1",
      from: "marketplace-messages@amazon.nl",
      host: "www.amazon.nl",
      subject: "Jouw mening over 'Koffiemolen...'",
      headline: "Hoe bevalt je aankoop?",
    });
    const french = raw({
      ...de,
      id: "fr-1",
      from: "marketplace-messages@amazon.fr",
      host: "www.amazon.fr",
      subject: "Évaluez votre achat : « Bouilloire... »",
    });
    await mail.ingest(u.userid, Buffer.from(dutch, "utf8"), { scan });
    await mail.ingest(u.userid, Buffer.from(french, "utf8"), { scan });
    const summary = mail.endScan(scan);
    expect(summary.skipped).toEqual({ "not-an-order-mail": 2 });
    expect(summary.otherByMarketplace).toEqual({ unknown: 1, FR: 1 });
    expect(list(u.userid)).toHaveLength(0);
  });
});

describe("the migration", () => {
  test("existing orders get their marketplace's currency (US when unknown)", () => {
    const dir = path.resolve(import.meta.dir, "../../migrations");
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d{4}_.*\.sql$/.test(f))
      .sort();
    const mine = files.findIndex((f) => f.includes("orders_currency_vine_marketplace"));
    expect(mine).toBeGreaterThan(0);
    const db = new Database(":memory:");
    const run = (f: string) => {
      for (const stmt of fs
        .readFileSync(path.join(dir, f), "utf8")
        .split("--> statement-breakpoint")) {
        if (stmt.trim()) db.run(stmt);
      }
    };
    for (const f of files.slice(0, mine)) run(f);
    db.run("INSERT INTO users (email, displayname, password_hash) VALUES ('a@b.c', 'A', 'x')");
    const urls = [
      "https://www.amazon.co.uk/dp/B000000001",
      "https://www.amazon.fr/dp/B000000002",
      "https://www.amazon.co.jp/dp/B000000003",
      "https://WWW.AMAZON.CA/dp/B000000004",
      "https://www.amazon.com.au/dp/B000000005",
      "https://www.amazon.com/dp/B000000006",
      "https://www.amazon.de/dp/B000000007",
      "https://example.com/amazon.de/x",
      "https://smile.amazon.co.uk/gp/product/B000000008",
      null,
    ];
    for (const u of urls) {
      db.query(
        "INSERT INTO orders (user_id, product_name, asin, product_url, created_at, updated_at) VALUES (1, 'p', 'B0', ?, 'x', 'x')",
      ).run(u);
    }
    run(files[mine] as string);
    const got = db.query("SELECT currency FROM orders ORDER BY id").all() as { currency: string }[];
    expect(got.map((r) => r.currency)).toEqual([
      "GBP",
      "EUR",
      "JPY",
      "CAD",
      "AUD",
      "USD",
      "EUR",
      "USD",
      "GBP",
      "USD",
    ]);
  });
});

describe("POST /api/imap/import, default 'Vine orders only': the Vine rule in every currency form", () => {
  /**
   * The marketplace's 2025 confirmation (test/fixtures/mail/locale-cases.ts) with its total written
   * in `total` and no item price shown (no aria amount either): only the total can tell a Vine
   * order (0) from a paid one, as in the real Japanese and Canadian mail whose total was unread.
   */
  const confirmation = (id: string, total: string, n: number): string => {
    const base = LOCALE_CASES.find((c) => c.id === id);
    const order = base?.orders[0];
    if (!base || !order) throw new Error(`no case ${id}`);
    const number = `${order.number.slice(0, 4)}${String(n).padStart(7, "0")}${order.number.slice(11)}`;
    return raw({
      ...base,
      id: `${id}-${n}`,
      total,
      orders: [
        {
          number,
          items: order.items.map((i) => ({
            ...i,
            asin: `B0VINE${String(n).padStart(4, "0")}`,
            price: "",
            amount: "",
          })),
        },
      ],
    });
  };
  /** The text layout of the real amazon.co.jp 2025 confirmation (test/fixtures/mail/real/jp). */
  const jpText = (total: string, n: number): string =>
    [
      'From: "Amazon.co.jp" <auto-confirm@amazon.co.jp>',
      "To: reviewer@example.net",
      `Subject: =?UTF-8?B?${Buffer.from("注文済み: 「シリコンスプーン...」").toString("base64")}?=`,
      "Date: Thu, 16 Oct 2025 08:03:51 +0900",
      `Message-ID: <jp-text-${n}@fixture.example>`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=UTF-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      "ご注文ありがとうございます。",
      "注文番号",
      `250-${String(n).padStart(7, "0")}-3318844`,
      "* シリコンスプーン 24本セット",
      "  数量: 1",
      "",
      "合計",
      total,
      "",
    ].join("\r\n");

  const FORMS: Array<{
    form: string;
    paid: string;
    mail: (total: string, n: number) => string;
    currency: string;
  }> = [
    { form: "0 JPY", paid: "1,280 JPY", mail: jpText, currency: "JPY" },
    {
      form: "￥ 0",
      paid: "￥ 2,640",
      mail: (t, n) => confirmation("jp-ordered", t, n),
      currency: "JPY",
    },
    {
      form: "0円",
      paid: "1,980円",
      mail: (t, n) => confirmation("jp-ordered", t, n),
      currency: "JPY",
    },
    {
      form: "0.00 CAD",
      paid: "90.39 CAD",
      mail: (t, n) => confirmation("ca-ordered", t, n),
      currency: "CAD",
    },
    {
      form: "CDN$ 0.00",
      paid: "CDN$ 32.99",
      mail: (t, n) => confirmation("ca-ordered", t, n),
      currency: "CAD",
    },
    {
      form: "EUR 0,00",
      paid: "EUR 60,05",
      mail: (t, n) => confirmation("it-ordered", t, n),
      currency: "EUR",
    },
    {
      form: "0,00 €",
      paid: "34,90 €",
      mail: (t, n) => confirmation("fr-ordered", t, n),
      currency: "EUR",
    },
    {
      form: "£0.00",
      paid: "£19.99",
      mail: (t, n) => confirmation("uk-ordered", t, n),
      currency: "GBP",
    },
    {
      form: "A$0.00",
      paid: "A$45.00",
      mail: (t, n) => confirmation("au-ordered", t, n),
      currency: "AUD",
    },
  ];

  test("a Vine confirmation in each form becomes an order in its currency; the paid one does not", async () => {
    const u = await h.register();
    const fd = new FormData();
    FORMS.forEach((f, i) => {
      fd.append("files", new File([f.mail(f.form, 2 * i + 1)], `vine-${i}.eml`));
      fd.append("files", new File([f.mail(f.paid, 2 * i + 2)], `paid-${i}.eml`));
    });
    const res = await call<IngestSummary>(h, "POST", "/api/imap/import", {
      token: u.token,
      raw: fd,
    });
    expect(res.res.status).toBe(200);
    expect(res.body).toMatchObject({
      messagesRead: 2 * FORMS.length,
      ordersCreated: FORMS.length,
      skipped: { "not-vine": FORMS.length },
    });
    const got = list(u.userid).map((o) => [(o.amazonordernumber ?? "").slice(4, 11), o.currency]);
    expect(got).toEqual(FORMS.map((f, i) => [String(2 * i + 1).padStart(7, "0"), f.currency]));
  });
});
