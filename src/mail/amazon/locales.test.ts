/**
 * The reader on every Vine marketplace's mail: the project's own fixtures in
 * test/fixtures/mail/locales.ts (each case names where its wording comes from), read through
 * parseMail like mail from IMAP.
 */
import { describe, expect, test } from "bun:test";
import { LOCALE_CASES } from "../../../test/fixtures/mail/locale-cases.ts";
import { type LocaleCase, raw } from "../../../test/fixtures/mail/locales.ts";
import { parseMail } from "../parse.ts";
import { readAmazonMail } from "./reader.ts";
import { isAmazonSender } from "./senders.ts";
import type { MailFacts } from "./types.ts";

async function read(c: LocaleCase): Promise<MailFacts> {
  return readAmazonMail(await parseMail(Buffer.from(raw(c), "utf8")));
}

/** The case's mail, read: its kind, marketplace and order numbers are the case's. */
async function readAsCase(c: LocaleCase): Promise<MailFacts> {
  const f = await read(c);
  expect({ kind: f.kind, marketplace: f.marketplace }).toEqual({
    kind: c.kind,
    marketplace: c.marketplace,
  });
  expect(f.orders.map((o) => o.amazonordernumber)).toEqual(c.orders.map((o) => o.number));
  return f;
}

describe("every marketplace and kind, 2025 layout", () => {
  test.each(LOCALE_CASES.map((c) => [c.id, c.source, c] as const))(
    "%s (%s)",
    async (_id, _source, c) => {
      expect(isAmazonSender(c.from)).toBe(true);
      const f = await readAsCase(c);
      const o = f.orders[0];
      const want = c.orders[0];
      if (!o || !want) throw new Error("no order");
      expect(
        o.items.map((i) => ({
          name: i.productname,
          asin: i.asin,
          url: i.producturl,
          price: i.price,
        })),
      ).toEqual(
        want.items.map((i, k) => ({
          name: i.name,
          asin: i.asin,
          url: `https://${c.host}/dp/${i.asin}`,
          price: c.expect.itemPrices?.[k] ?? null,
        })),
      );
      expect(o.items.every((i) => i.productimage?.startsWith("https://m.media-amazon.com/"))).toBe(
        true,
      );
      expect({
        total: o.total,
        estimate: o.expecteddeliverydatetext,
        trackingnumber: o.trackingnumber,
        carrier: o.carrier,
      }).toEqual({
        total: c.expect.total ?? null,
        estimate: c.expect.estimate ?? null,
        trackingnumber: c.expect.trackingnumber ?? null,
        carrier: (c.expect.carrier ?? null) as never,
      });
    },
  );
});

/** A case of the older plain layout, from a 2025 one with the older subject and headline. */
function older(id: string, over: Partial<LocaleCase>): LocaleCase {
  const base = LOCALE_CASES.find((c) => c.id === id);
  if (!base) throw new Error(id);
  return { ...base, id: `${id}-older`, layout: "older", ...over };
}

describe("older layouts still in mailboxes", () => {
  const cases: LocaleCase[] = [
    older("uk-shipped", {
      source: "real",
      subject: "Your Amazon.co.uk order #202-5550101-2203341 of 1 item has been dispatched",
      headline: "Dispatch Confirmation",
    }),
    older("de-shipped", {
      source: "locales.md",
      subject: "Ihre Amazon.de Bestellung von „Kaffeemühle elektrisch...“ wurde versandt!",
      headline: "Versandbestätigung",
    }),
    older("fr-shipped", {
      source: "real",
      subject: "Votre commande Amazon.fr de « Bouilloire électrique... » a été expédiée.",
      headline: "Confirmation d'expédition",
    }),
    older("it-shipped", {
      source: "real",
      subject: "Il tuo ordine Amazon.it n. 403-5550101-2203341 di 1 articolo è stato spedito",
      headline: "Conferma spedizione",
    }),
    older("it-delivered", {
      source: "real",
      subject: "Consegna effettuata: Il tuo ordine Amazon.it #403-5550101-2203341",
      headline: "Il tuo pacco è stato consegnato.",
    }),
    older("jp-ordered", {
      source: "locales.md",
      subject: "Amazon.co.jp ご注文の確認",
      headline: "Amazon.co.jpをご利用いただき、ありがとうございます。",
    }),
    older("jp-shipped", {
      source: "locales.md",
      subject: "Amazon.co.jp ご注文の商品を発送しました",
      headline: "Amazon.co.jp ご注文の発送",
    }),
  ];
  test.each(cases.map((c) => [c.id, c.source, c] as const))("%s (%s)", async (_id, _source, c) => {
    const f = await readAsCase(c);
    const o = f.orders[0];
    expect(o?.items.map((i) => [i.productname, i.asin])).toEqual(
      c.orders[0]?.items.map((i) => [i.name, i.asin]) ?? [],
    );
    expect(o?.total ?? null).toBe(c.expect.total ?? null);
    expect(o?.trackingnumber ?? null).toBe(c.expect.trackingnumber ?? null);
    expect(o?.carrier ?? null).toBe((c.expect.carrier ?? null) as never);
  });
});

describe("several orders and packages in one message", () => {
  test("JP 'Amazon.co.jpでのご注文' naming two orders: each its own items", async () => {
    const base = LOCALE_CASES.find((c) => c.id === "jp-ordered-paid-multi");
    if (!base) throw new Error("case");
    const [a, b] = base.orders[0]?.items ?? [];
    if (!a || !b) throw new Error("items");
    const c: LocaleCase = {
      ...base,
      id: "jp-two-orders",
      subject: "Amazon.co.jpでのご注文 #249-5550101-2203341",
      orders: [
        { number: "249-5550101-2203341", items: [a] },
        { number: "249-5550102-2203342", items: [b] },
      ],
    };
    const f = await read(c);
    expect(f.kind).toBe("ordered");
    expect(f.orders.map((o) => [o.amazonordernumber, o.items.map((i) => i.asin)])).toEqual([
      ["249-5550101-2203341", [a.asin]],
      ["249-5550102-2203342", [b.asin]],
    ]);
  });

  test("FR shipment of two items (multi-package order): both items, one tracking number", async () => {
    const base = LOCALE_CASES.find((c) => c.id === "fr-shipped");
    const two = LOCALE_CASES.find((c) => c.id === "fr-ordered-paid-multi");
    if (!base || !two) throw new Error("case");
    const f = await read({ ...base, id: "fr-shipped-two", orders: two.orders });
    expect(f.kind).toBe("shipped");
    const o = f.orders[0];
    expect(o?.items).toHaveLength(2);
    expect(o?.trackingnumber).toBe("6A12345678901");
    expect(o?.carrier).toBe("LAPOSTE");
  });
});

describe("mail that must not become an order, in every language", () => {
  const base = LOCALE_CASES.find((c) => c.id === "fr-delivered");
  if (!base) throw new Error("case");
  test.each([
    ["US refund", "order-update@amazon.com", "Your refund for Vine Widget Pro..."],
    ["UK return", "return@amazon.co.uk", "Your return request for 'Cordless Kettle...'"],
    ["DE refund", "rueckgabe@amazon.de", "Ihre Erstattung für „Kaffeemühle...“"],
    ["DE return", "rueckgabe@amazon.de", "Ihre Rücksendung von „Kaffeemühle...“"],
    ["FR refund", "retours@amazon.fr", "Votre remboursement pour « Bouilloire... »"],
    ["FR return", "retours@amazon.fr", "Votre retour de « Bouilloire... » a été reçu"],
    ["IT refund", "resi@amazon.it", "Il tuo rimborso per “Macchina per caffè...”"],
    ["IT return", "resi@amazon.it", "Il tuo reso di “Macchina per caffè...”"],
    ["ES refund", "devoluciones@amazon.es", "Tu reembolso de “Sartén antiadherente...”"],
    ["ES return", "devoluciones@amazon.es", "Tu devolución de “Sartén antiadherente...”"],
    ["JP refund", "order-update@amazon.co.jp", "Amazon.co.jp 返金のお知らせ"],
    ["JP return", "order-update@amazon.co.jp", "Amazon.co.jp 返品受付のお知らせ"],
    ["US rate", "marketplace-messages@amazon.com", "Rate your purchase: Vine Widget Pro..."],
    ["UK rate", "marketplace-messages@amazon.co.uk", "How was your Cordless Kettle...?"],
    ["DE rate", "marketplace-messages@amazon.de", "Bewerten Sie Ihren Kauf: „Kaffeemühle...“"],
    ["FR rate", "marketplace-messages@amazon.fr", "Évaluez votre achat : « Bouilloire... »"],
    ["IT rate", "marketplace-messages@amazon.it", "Valuta il tuo acquisto: “Macchina...”"],
    ["ES rate", "marketplace-messages@amazon.es", "Valora tu compra: “Sartén...”"],
    ["JP rate", "marketplace-messages@amazon.co.jp", "ご購入商品のレビューをお願いします"],
  ])("%s: %s", async (_n, from, subject) => {
    const f = await read({ ...base, id: "not-order", from, subject });
    expect(f.kind).toBe("other");
    expect(f.orders).toEqual([]);
  });

  test.each([
    ["es", "Llega hoy: Tu contraseña de un solo uso es necesaria para la entrega"],
    ["fr", "Arrive aujourd'hui : mot de passe à usage unique requis"],
    ["de", "Heute: Einmalpasswort für Ihre Zustellung"],
    ["it", "In consegna oggi: password monouso necessaria"],
    ["jp", "本日お届け: ワンタイムパスワードが必要です"],
  ])("%s: a delivery one-time password mail naming an order is other", async (mp, subject) => {
    const ofd = LOCALE_CASES.find((c) => c.id === `${mp}-out-for-delivery`);
    if (!ofd) throw new Error("case");
    const f = await read({ ...ofd, id: `${mp}-otp`, subject });
    expect(f.kind).toBe("other");
    expect(f.orders).toEqual([]);
  });

  test("recommendations naming products (no order number) are other", async () => {
    const f = await read({
      ...base,
      id: "recs",
      subject: "Recommandé pour vous : Lampe de bureau",
      headline: "Recommandé pour vous",
      orderLabel: "Voir",
      orders: [{ number: "", items: base.orders[0]?.items ?? [] }],
    });
    expect(f.kind).toBe("other");
    expect(f.orders).toEqual([]);
  });
});

describe("mail in a language the reader has no phrase for (structure decides)", () => {
  const base = LOCALE_CASES.find((c) => c.id === "de-ordered");
  if (!base) throw new Error("case");
  const polish = {
    ...base,
    id: "pl",
    from: "auto-confirm@amazon.pl",
    host: "www.amazon.pl",
    subject: "Zamówiono: 'Młynek do kawy...'",
    headline: "Dziękujemy za zamówienie",
    orderLabel: "Zamówienie nr",
    totalLabel: "Suma",
  };

  test("an order sender's mail with an order number is an order mail; marketplace unknown", async () => {
    const f = await read(polish);
    expect(f.kind).toBe("ordered");
    expect(f.marketplace).toBe("unknown");
    expect(f.orders.map((o) => o.amazonordernumber)).toEqual(base.orders.map((o) => o.number));
    expect(f.reason).toContain("order sender");
  });

  test("the same mail from an update sender is not understood: other, kind unread", async () => {
    const f = await read({ ...polish, from: "order-update@amazon.pl" });
    expect(f).toMatchObject({ kind: "other", orders: [], unread: ["kind"] });
  });

  test("the same mail from any other Amazon sender stays other, nothing unread", async () => {
    const f = await read({ ...polish, from: "store-news@amazon.pl" });
    expect(f.kind).toBe("other");
    expect(f.unread ?? []).toEqual([]);
  });
});
