/**
 * The reader on every Vine marketplace's mail (issue 16): the project's own fixtures in
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

describe("every marketplace and kind, 2025 layout", () => {
  test.each(LOCALE_CASES.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    expect(isAmazonSender(c.from)).toBe(true);
    const f = await read(c);
    expect({ kind: f.kind, marketplace: f.marketplace }).toEqual({
      kind: c.kind,
      marketplace: c.marketplace,
    });
    expect(f.orders.map((o) => o.amazonordernumber)).toEqual(c.orders.map((o) => o.number));
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
  });
});
