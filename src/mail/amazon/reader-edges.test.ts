/**
 * The reader on hostile and broken input, on what a mail shows but the reader could not read
 * (MailFacts.unread), and on a text part filling what a short HTML part lacks.
 */
import { describe, expect, test } from "bun:test";
import { html, load, only, read } from "../../../test/fixtures/mail/load.ts";
import { readAmazonMail } from "./reader.ts";
import type { MailFacts, MailMessage } from "./types.ts";

describe("hostile and broken input", () => {
  test("a message cut off mid-HTML still reads what arrived", async () => {
    const f = await read("truncated.eml");
    expect(f.kind).toBe("shipped");
    const o = only(f);
    expect(o.amazonordernumber).toBe("113-2223334-4445556");
    expect(o.items.map((i) => i.asin)).toEqual(["B0SHIP0042"]);
  });

  const timed = (msg: MailMessage): { facts: MailFacts; ms: number } => {
    const t0 = performance.now();
    const facts = readAmazonMail(msg);
    return { facts, ms: performance.now() - t0 };
  };

  test.each([
    ["400k nested <div>", "<div>".repeat(400_000)],
    ["300k nested <a>", "<a href='https://www.amazon.com/dp/B000000001'>".repeat(300_000)],
    ["a 4 MB paragraph of order labels", `<p>${"Order # ".repeat(500_000)}</p>`],
    ["digits and separators", `<p>Order Total: ${"1,".repeat(600_000)}</p>`],
    ["dashes after an order label", `<p>Order #${"1-".repeat(600_000)}</p>`],
    ["an unterminated comment", `<p>Order #113-1234567-1234567</p><!--${"x".repeat(3_000_000)}`],
    ["an unterminated attribute", `<a title="${"a ".repeat(1_000_000)}`],
    [
      "100k product links",
      '<p>Order #111-1111111-1111111</p><a href="https://www.amazon.com/dp/B000000001">Product name</a>'.repeat(
        100_000,
      ),
    ],
    ["tracking bait", `<p>Your tracking number is ${"A ".repeat(600_000)}</p>`],
    [
      "price bait after every product link",
      `<p>Order #111-1111111-1111111</p>${`<a href="https://www.amazon.com/dp/B000000001">Product</a><p>${`$${"1".repeat(30)} `.repeat(60)}</p>`.repeat(2_000)}`,
    ],
    ["ship-to bait", "<p>Ship to:</p><p>x</p><p>y</p>".repeat(80_000)],
  ])("%s: bounded time, no crash", (_label, body) => {
    const { facts, ms } = timed(html(body));
    expect(facts.kind).toBe("ordered");
    expect(ms).toBeLessThan(3000);
  });

  test("huge and binary text parts", () => {
    const big = timed(html("", { html: null, text: `${"> ".repeat(2_000_000)}\n`.repeat(2) }));
    expect(big.ms).toBeLessThan(3000);
    const bin = timed(
      html("", {
        html: null,
        text: String.fromCharCode(...Array.from({ length: 60_000 }, (_, i) => i % 65_536)),
      }),
    );
    expect(bin.facts.orders).toEqual([]);
  });

  test("thousands of estimate labels without a date and of item lines stay quick", () => {
    const lines: string[] = ["Dein Paket wurde versendet!", "Bestellnr. 305-3371904-8820567"];
    for (let i = 0; i < 5000; i++) {
      lines.push(`Lieferung: Feld ${i} ohne Datum`, `* Artikel ${i}`, "Menge: 2", `${i},99 €`);
    }
    const { facts, ms } = timed({
      messageId: null,
      from: { address: "versandbestaetigung@amazon.de", name: "Amazon.de" },
      subject: "Versandt: „Artikel...“",
      date: new Date("2026-05-04T08:00:00Z"),
      html: null,
      text: lines.join("\n"),
      headers: [],
    });
    expect(facts.kind).toBe("shipped");
    expect(facts.orders[0]?.items.length).toBeLessThanOrEqual(100);
    expect(facts.orders[0]?.expecteddeliverydatetext).toBeNull();
    expect(ms).toBeLessThan(3000);
  });

  test("many order numbers are capped", () => {
    let body = "";
    for (let i = 0; i < 5_000; i++) {
      body += `<p>Order #${String(100 + (i % 900))}-${String(1_000_000 + i)}-1234567</p>`;
    }
    const { facts, ms } = timed(html(body));
    expect(facts.orders.length).toBeLessThanOrEqual(50);
    expect(ms).toBeLessThan(3000);
  });

  test("names are trimmed, entity-decoded and capped at 500 characters", () => {
    const long = `  Name &amp; ${"x".repeat(2_000)}  `;
    const f = readAmazonMail(
      html(
        `<p>Order #111-1111111-1111111</p><a href="https://www.amazon.com/dp/B000000001">${long}</a>`,
      ),
    );
    const name = f.orders[0]?.items[0]?.productname ?? "";
    expect(name.startsWith("Name & xxx")).toBe(true);
    expect(name.length).toBe(500);
  });

  test("a message with nothing in it is other", () => {
    expect(readAmazonMail(html("", { html: null, subject: "" }))).toMatchObject({
      kind: "other",
      orders: [],
    });
  });

  test("links to look-alike hosts give no ASIN", () => {
    const f = readAmazonMail(
      html(
        '<p>Order #111-1111111-1111111</p><a href="https://www.amazon.com.evil.io/dp/B000000001"><img src="https://m.media-amazon.com/images/I/x.jpg" alt="Phishing Product Name Here"></a>',
      ),
    );
    expect(f.orders[0]?.items[0]).toMatchObject({ asin: null, producturl: null });
  });
});

describe("what a mail shows but the reader could not read (MailFacts.unread)", () => {
  test("a confirmation with no readable total and no item price: total unread", async () => {
    const f = await read("real/es/ordered-pedido-2025.eml");
    expect(f.kind).toBe("ordered");
    expect(f.orders[0]?.total).toBeNull();
    expect(f.unread).toEqual(["total"]);
  });

  test("a confirmation whose total is read has nothing unread", async () => {
    const f = await read("real/jp/ordered-chuumonzumi-multi-vine-2025.eml");
    expect(f.orders[0]?.total).toBe("0.00");
    expect(f.unread).toBeUndefined();
  });

  test("a subject that counts items, and no item read: items unread", async () => {
    const f = await read("real/es/delivered-entregado-2025.eml");
    expect(f.kind).toBe("delivered");
    expect(f.unread).toEqual(["items"]);
  });

  test("an estimate label whose date is not read, on a parcel still on its way: delivery-date unread", () => {
    const f = readAmazonMail({
      messageId: null,
      from: { address: "shipment-tracking@amazon.de", name: "Amazon.de" },
      subject: "Versandt: „Kabelbinder Set 500 Stück...“",
      date: new Date("2026-05-04T08:00:00Z"),
      html: null,
      text: "Dein Paket wurde versendet!\nLieferung: in Kürze\nBestellnr. 305-3371904-8820567\n",
      headers: [],
    });
    expect(f.kind).toBe("shipped");
    expect(f.orders[0]?.expecteddeliverydatetext).toBeNull();
    expect(f.unread).toEqual(["delivery-date"]);
  });
});

describe("the text part fills what a short HTML part lacks", () => {
  test("amazon.ca 2026: the HTML shows no item lines; the text part's item, quantity, price and total are read", async () => {
    const msg = await load("real/ca/shipped-cad-2026-vine.eml");
    expect(msg.html).toBeTruthy();
    const o = only(readAmazonMail(msg));
    expect(o.items.map((i) => [i.productname, i.quantity, i.price])).toEqual([
      [
        "Stainless Steel Lunch Box, 3-Compartment Bento Container with Leakproof Lid for Adults and Kids (1400 ml)",
        2,
        "0.00",
      ],
    ]);
    expect(o.total).toBe("0.00");
    // Without its text part the same mail has only the subject's cut name.
    const htmlOnly = only(readAmazonMail({ ...msg, text: null }));
    expect(htmlOnly.items.map((i) => i.productname)).toEqual(["Stainless Steel Lunch Box,..."]);
    expect(htmlOnly.total).toBeNull();
  });

  test("a shipping sender's mail in a language with no phrase is shipped by its sender", () => {
    const f = readAmazonMail({
      messageId: null,
      from: { address: "shipment-tracking@amazon.pl", name: "Amazon.pl" },
      subject: "Wysłano: „Czajnik...”",
      date: new Date("2026-05-04T08:00:00Z"),
      html: null,
      text: "Twoja paczka jest w drodze\nZamówienie nr 405-1234567-7654321\n",
      headers: [],
    });
    expect(f.kind).toBe("shipped");
    expect(f.orders.map((o) => o.amazonordernumber)).toEqual(["405-1234567-7654321"]);
  });
});
