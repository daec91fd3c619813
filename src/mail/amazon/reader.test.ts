/**
 * The reader on the team's own fixtures (test/fixtures/mail, written for this project after the
 * formats of the public corpus), one or more per kind and marketplace, plus hostile input.
 */
import { describe, expect, test } from "bun:test";
import { html, load, only, read } from "../../../test/fixtures/mail/load.ts";
import { readAmazonMail } from "./reader.ts";
import { isAmazonSender } from "./senders.ts";
import type { MailOrder } from "./types.ts";

describe("order confirmations", () => {
  test("US 2025 'Ordered:' single Vine item: $0.00, recommendations left out", async () => {
    const f = await read("us-ordered-2025-vine.eml");
    expect(f.kind).toBe("ordered");
    expect(f.marketplace).toBe("US");
    expect(f.forwarded).toBe(false);
    const o = only(f);
    expect(o).toMatchObject({
      amazonordernumber: "112-4839201-7730145",
      total: "0.00",
      dateordered: "2025-03-24T13:54:08.000Z",
      expecteddeliverydatetext: "Arriving Thursday",
      shiptoaddress: "Dana - PORTLAND, OR",
      trackingnumber: null,
      carrier: null,
      datedelivered: null,
    });
    expect(o.items).toEqual([
      {
        productname: "Vine Widget Pro 3000 Cordless Electric Gadget, 2-Pack, Black",
        asin: "B0DVINE001",
        producturl: "https://www.amazon.com/dp/B0DVINE001",
        productimage: "https://m.media-amazon.com/images/I/71VineWdgtL.SS90_.jpg",
        price: "0.00",
        quantity: 1,
      },
    ]);
  });

  test("US 2025 multi-item: both items with their prices and quantities", async () => {
    const o = only(await read("us-ordered-2025-multi-item.eml"));
    expect(o.amazonordernumber).toBe("114-0833187-7581859");
    expect(o.total).toBe("58.27");
    expect(o.items.map((i) => [i.asin, i.price, i.quantity])).toEqual([
      ["B086TW4S5X", "24.29", 1],
      ["B08JK5SCDX", "16.99", 2],
    ]);
    expect(o.items[0]?.productname).toStartWith("Bathroom Faucet Brushed Nickel One-Handle");
  });

  test("US classic confirmation, single item", async () => {
    const f = await read("us-ordered-classic-single.eml");
    expect(f.kind).toBe("ordered");
    const o = only(f);
    expect(o.amazonordernumber).toBe("113-5551234-9876543");
    expect(o.total).toBe("0.00");
    expect(o.expecteddeliverydatetext).toBe("Friday, September 10");
    expect(o.shiptoaddress).toBe(
      "Dana Reviewer, 742 EVERGREEN TER, PORTLAND, OR 97201-1234, United States",
    );
    expect(o.items).toHaveLength(1);
    expect(o.items[0]).toMatchObject({
      asin: "B09CLASS01",
      productname: "Bamboo Cutting Board Set of 3 with Juice Groove & Handles, Extra Large",
      price: "0.00",
    });
  });

  test("two orders in one message: each with its own items, total and estimate", async () => {
    const f = await read("us-ordered-classic-multi-order.eml");
    expect(f.kind).toBe("ordered");
    expect(f.orders.map((o) => o.amazonordernumber)).toEqual([
      "113-1111111-2222222",
      "113-3333333-4444444",
    ]);
    const [a, b] = f.orders as [MailOrder, MailOrder];
    expect(a.items.map((i) => [i.asin, i.quantity])).toEqual([
      ["B0MULTI001", 1],
      ["B0MULTI002", 2],
    ]);
    expect(a.total).toBe("0.00");
    expect(a.expecteddeliverydatetext).toBe("Friday, November 26");
    expect(b.items.map((i) => [i.asin, i.price])).toEqual([["B0MULTI003", "34.90"]]);
    expect(b.total).toBe("34.90");
    expect(b.expecteddeliverydatetext).toBe("Monday, November 29 - Wednesday, December 1");
    // "Recommended for you based on…" comes after the orders and gives no item.
    expect(f.orders.flatMap((o) => o.items).some((i) => i.asin === "B0RECOMM01")).toBe(false);
  });

  test("Canada: marketplace CA, product URL on amazon.ca, base64 body", async () => {
    const f = await read("ca-ordered-2025.eml");
    expect(f.marketplace).toBe("CA");
    const o = only(f);
    expect(o.amazonordernumber).toBe("702-5550101-2203344");
    expect(o.total).toBe("0.00");
    expect(o.items[0]?.producturl).toBe("https://www.amazon.ca/dp/B0CAMAPLE1");
  });
});

describe("shipments", () => {
  test("shipped with tracking number and carrier stated; recommendation-heavy", async () => {
    const f = await read("us-shipped-2025-tracking.eml");
    expect(f.kind).toBe("shipped");
    const o = only(f);
    expect(o.trackingnumber).toBe("1Z999AA10123456784");
    expect(o.carrier).toBe("UPS");
    expect(o.expecteddeliverydatetext).toBe("Arriving Friday, September 11");
    // One real item; "Picked for you" (no known heading, but recommendation ref tags),
    // "Buy it again" and "Customers who bought…" products are not items.
    expect(o.items.map((i) => i.asin)).toEqual(["B0SHIP0042"]);
  });

  test("2020 shipment: '1 item', recommendations only → no item, total and estimate read", async () => {
    const f = await read("us-shipped-2020-recommendations.eml");
    expect(f.kind).toBe("shipped");
    const o = only(f);
    expect(o.amazonordernumber).toBe("113-5838173-8241820");
    expect(o.items).toEqual([]);
    expect(o.total).toBe("0.00");
    expect(o.expecteddeliverydatetext).toBe("Friday, September 11");
    expect(o.shiptoaddress).toBe("Dana, PORTLAND, OR");
  });

  test("UK dispatch: Amazon Logistics tracking in prose, hub items ignored", async () => {
    const f = await read("uk-shipped-2020.eml");
    expect(f.kind).toBe("shipped");
    expect(f.marketplace).toBe("UK");
    const o = only(f);
    expect(o).toMatchObject({
      amazonordernumber: "026-4480809-9307517",
      trackingnumber: "QA0881872248",
      carrier: "AMAZON",
      total: "0.00",
      expecteddeliverydatetext: "Saturday, December 12",
      shiptoaddress: "Thomas Atkins, LONDON",
    });
    expect(o.items.map((i) => [i.asin, i.producturl])).toEqual([
      ["B08BCDMHQX", "https://www.amazon.co.uk/dp/B08BCDMHQX"],
    ]);
  });

  test("text/plain only: order, item from the product link, estimate", async () => {
    const msg = await load("us-shipped-text-only.eml");
    expect(msg.html).toBeNull();
    const f = readAmazonMail(msg);
    expect(f.kind).toBe("shipped");
    const o = only(f);
    expect(o.amazonordernumber).toBe("111-7634359-8390444");
    expect(o.expecteddeliverydatetext).toBe("Arriving tomorrow");
    expect(o.total).toBe("10.62");
    expect(o.items).toHaveLength(1);
    expect(o.items[0]).toMatchObject({
      asin: "B0CAMCABL1",
      productname: "2Pack 30FT Camera Power Extension Cable, 5.5mm x 2.1mm",
    });
  });

  test("no body at all: kind and order number from the subject", async () => {
    const msg = await load("us-shipped-no-body.eml");
    expect(msg.html).toBeNull();
    expect(msg.text).toBeNull();
    const f = readAmazonMail(msg);
    expect(f.kind).toBe("shipped");
    expect(only(f).amazonordernumber).toBe("113-9999999-8459426");
  });
});

describe("out for delivery, delivered, delayed", () => {
  test("US 2025 out for delivery (typographic quotes, encoded subject)", async () => {
    const f = await read("us-out-for-delivery-2025.eml");
    expect(f.kind).toBe("out-for-delivery");
    const o = only(f);
    expect(o.amazonordernumber).toBe("111-9876543-2109876");
    expect(o.expecteddeliverydatetext).toBe("Arriving today by 8 PM");
    expect(o.items.map((i) => i.asin)).toEqual(["B0TANKPRO1"]);
  });

  test("US 2025 delivered: two items, delivered at the mail's date", async () => {
    const f = await read("us-delivered-2025.eml");
    expect(f.kind).toBe("delivered");
    const o = only(f);
    expect(o.amazonordernumber).toBe("111-9196457-7912345");
    expect(o.datedelivered).toBe("2025-04-11T23:20:45.000Z");
    expect(o.items.map((i) => i.asin)).toEqual(["B0DELIV001", "B0DELIV002"]);
    expect(o.dateordered).toBeNull();
  });

  test("US 2020 delivered: '1 item', no names", async () => {
    const f = await read("us-delivered-2020.eml");
    expect(f.kind).toBe("delivered");
    const o = only(f);
    expect(o.amazonordernumber).toBe("113-5838173-8241820");
    expect(o.items).toEqual([]);
    expect(o.datedelivered).toBe("2020-09-11T18:51:20.000Z");
  });

  test("UK delivered", async () => {
    const f = await read("uk-delivered-2020.eml");
    expect(f).toMatchObject({ kind: "delivered", marketplace: "UK" });
    expect(only(f).amazonordernumber).toBe("205-2169302-5352337");
  });

  test("IT delivered", async () => {
    const f = await read("it-delivered.eml");
    expect(f).toMatchObject({ kind: "delivered", marketplace: "IT" });
    const o = only(f);
    expect(o.amazonordernumber).toBe("171-7246487-3567512");
    expect(o.datedelivered).toBe("2020-12-17T13:39:44.000Z");
  });

  test("delayed: new estimate, product name from the link title (no product URL)", async () => {
    const f = await read("us-delayed.eml");
    expect(f.kind).toBe("delayed");
    const o = only(f);
    expect(o.amazonordernumber).toBe("112-3456789-0123456");
    expect(o.expecteddeliverydatetext).toBe("March 27 - March 28");
    expect(o.items).toHaveLength(1);
    expect(o.items[0]).toMatchObject({
      asin: null,
      producturl: null,
      productname:
        "Logitech ERGO M575 Wireless Trackball Mouse, Easy Thumb Control, Precision and Smooth Tracking",
    });
  });
});

describe("Germany (no public sample: the reader's German wording on a minimal message)", () => {
  test("Versandbestätigung with Bestellnummer, Sendungsnummer and carrier", () => {
    const f = readAmazonMail(
      html(
        "<table><tr><td><h2>Versandbestätigung</h2></td></tr>" +
          "<tr><td>Bestellnummer 302-1234567-7654321</td></tr>" +
          "<tr><td>Ihre Sendung wurde versandt. Versand durch DHL. Sendungsnummer: 00340434161234567890</td></tr>" +
          '<tr><td><a href="https://www.amazon.de/dp/B0DEUTSCH1/ref=pe_TE_dp_1">Kaffeemühle aus Edelstahl, manuell</a></td></tr>' +
          "<tr><td>Gesamtbetrag: EUR 0,00</td></tr>" +
          "<tr><td>Wir hoffen, Sie bald wieder bei Amazon.de begrüßen zu dürfen.</td></tr>" +
          '<tr><td><a href="https://www.amazon.de/dp/B0DEREC001/ref=pe_pd_te_s_rp">Empfohlenes Produkt</a></td></tr></table>',
        {
          from: { address: "versandbestaetigung@amazon.de", name: "Amazon.de" },
          subject: "Versandt: „Kaffeemühle aus Edelstahl...“",
        },
      ),
    );
    expect(f).toMatchObject({ kind: "shipped", marketplace: "DE" });
    const o = only(f);
    expect(o).toMatchObject({
      amazonordernumber: "302-1234567-7654321",
      trackingnumber: "00340434161234567890",
      carrier: "DHL",
      total: "0.00",
    });
    expect(o.items.map((i) => [i.asin, i.producturl])).toEqual([
      ["B0DEUTSCH1", "https://www.amazon.de/dp/B0DEUTSCH1"],
    ]);
  });
});

describe("cancellations", () => {
  test("full cancellation: the whole order, canceled items listed", async () => {
    const f = await read("us-canceled-full.eml");
    expect(f.kind).toBe("canceled");
    const o = only(f);
    expect(o.amazonordernumber).toBe("113-7654321-1234567");
    expect(o.cancelscope).toBe("order");
    expect(o.items.map((i) => i.asin)).toEqual(["B0CANCEL01"]);
  });

  test("partial cancellation: only the named items", async () => {
    const f = await read("us-canceled-partial.eml");
    expect(f.kind).toBe("canceled");
    const o = only(f);
    expect(o.amazonordernumber).toBe("113-2468024-1357913");
    expect(o.cancelscope).toBe("items");
    expect(o.items.map((i) => [i.asin, i.productname])).toEqual([
      ["B0CANCEL02", "Replacement Filter for Air Purifier, 2-Pack, H13 True HEPA"],
    ]);
  });
});

describe("mail that is not about an order", () => {
  test.each([
    ["us-promo.eml", "promotion with products and prices"],
    ["us-signin-otp.eml", "sign-in one-time password"],
    ["us-delivery-otp.eml", "delivery one-time password naming an order"],
    ["us-hub-pickup.eml", "Hub locker pickup naming an order"],
  ])("%s (%s) → other, no orders", async (name) => {
    const f = await read(name);
    expect(f.kind).toBe("other");
    expect(f.orders).toEqual([]);
  });

  test("a forward: From is the forwarder, marked forwarded; the reader still reads it", async () => {
    const msg = await load("forwarded-gmail.eml");
    expect(msg.from?.address).toBe("dana.reviewer@gmail.com");
    expect(isAmazonSender(msg.from?.address)).toBe(false);
    const f = readAmazonMail(msg);
    expect(f.forwarded).toBe(true);
    expect(f.kind).toBe("ordered");
  });
});
