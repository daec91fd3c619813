import { describe, expect, test } from "bun:test";
import { prng } from "../../../test/support/prng.ts";
import { clean, cleanCapped, docFromHtml, docFromText, resolveUrl } from "./doc.ts";
import { findEstimate, findPrice, findTotal, normalisePrice, type Range } from "./fields.ts";
import { asinOf, subjectItem } from "./items.ts";
import { findCut, linkOrderNumbers, subjectOrderNumber, textOrderNumbers } from "./structure.ts";

describe("clean", () => {
  test("drops zero-width padding and bidi marks, collapses white space", () => {
    expect(clean("Order #\u00a0\u202b113-9615736-3549843")).toBe("Order # 113-9615736-3549843");
    expect(clean("Ordered\u034f \u200c \u00a0 \u2007 \u00ad\u034f x")).toBe("Ordered x");
    expect(clean("  a\n\t b  ")).toBe("a b");
  });
});

describe("cleanCapped / clean against the regular expressions they replace", () => {
  // The definition clean had before it became one pass: invisible characters out, then \s runs.
  const INVISIBLE =
    /[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]|\u034F|\u17B4|\u17B5|\u180B|\u180C|\u180D|\uFE00|\uFE01|\uFE0E|\uFE0F/g;
  const reference = (s: string): string => s.replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  /** Every code unit JS's \s matches, the dropped ones, their neighbours, surrogates, text. */
  const PIECES = [
    ..."\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff",
    ..."\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u200b\u200c\u200d\u200e\u200f",
    ..."\u202a\u202e\u2060\u2064\u206f\u3164\ufe00\ufe01\ufe0e\ufe0f\uffa0",
    ..."\u00ac\u00ae\u034e\u180a\u200a\u2010\u2070\ufe02\ufe0d\ufe10\ufefe\uff9f\uffa1",
    "\u{1F600}",
    "\ud83d",
    "\ude00",
    "a",
    "Z",
    "é",
    "x y",
    "  ",
    "...",
    "\r\n",
  ];

  test("every UTF-16 code unit, alone and between letters and spaces", () => {
    const wrong: number[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const s of [ch, `a${ch}b`, ` ${ch} x`, `x ${ch}`]) {
        if (clean(s) !== reference(s) || cleanCapped(s, 2) !== reference(s).slice(0, 2)) {
          wrong.push(c);
          break;
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  test("cleanCapped(s, max) is clean(s).slice(0, max) over 100,000 seeded random strings", () => {
    const rand = prng(20250601);
    const maxes = [0, 1, 2, 3, 4, 7, 16, 50, 2000, Number.POSITIVE_INFINITY];
    let checked = 0;
    for (let k = 0; k < 100_000; k++) {
      let s = "";
      const n = Math.floor(rand() * 40);
      for (let j = 0; j < n; j++) s += PIECES[Math.floor(rand() * PIECES.length)];
      const want = reference(s);
      if (clean(s) !== want) throw new Error(`clean(${JSON.stringify(s)})`);
      for (const max of maxes) {
        const got = cleanCapped(s, max);
        if (got !== want.slice(0, max)) {
          throw new Error(`cleanCapped(${JSON.stringify(s)}, ${max}) = ${JSON.stringify(got)}`);
        }
        checked++;
      }
    }
    expect(checked).toBe(1_000_000);
  }, 60_000); // 100,000 strings: well under a second alone, seconds on a busy machine

  test("long text: stops at max, and agrees at every cut", () => {
    const s = `\r\n  ${"Lorem ipsum\u00a0dolor  sit\u200b amet.\t".repeat(2000)} \ufeff`;
    const want = reference(s);
    for (const max of [0, 1, 5, 999, 1000, 1001, 2000, want.length - 1, want.length, 10 ** 6]) {
      expect(cleanCapped(s, max)).toBe(want.slice(0, max));
    }
    expect(clean(s)).toBe(want);
  });
});

describe("normalisePrice / findPrice", () => {
  test.each([
    ["12", "12.00"],
    ["12.5", "12.50"],
    ["0.00", "0.00"],
    ["1,234.56", "1234.56"],
    ["1.234,56", "1234.56"],
    ["107,34", "107.34"],
    ["1,234", "1234.00"],
    ["1.234", "1234.00"],
    ["2,000,000.10", "2000000.10"],
  ])("%s → %s", (raw, out) => {
    expect(normalisePrice(raw)).toBe(out);
  });

  test("refuses what is not a number", () => {
    expect(normalisePrice("abc")).toBeNull();
    expect(normalisePrice("")).toBeNull();
    expect(normalisePrice("9".repeat(40))).toBeNull();
  });

  test("finds prices in every currency style the marketplaces use", () => {
    expect(findPrice("Order Total: £35.99 Paid by Visa: £35.99")?.value).toBe("35.99");
    expect(findPrice("Totale: EUR 107,34")?.value).toBe("107.34");
    expect(findPrice("Summe: 19,99 €")?.value).toBe("19.99");
    expect(findPrice("CDN$ 24.99")?.value).toBe("24.99");
    expect(findPrice("Total $6.76")?.value).toBe("6.76");
    expect(findPrice("Quantity: 1")).toBeNull();
  });

  test("the Vine rule's zero in every marketplace's format reads as 0.00", () => {
    for (const zero of [
      "0,00 €",
      "£0.00",
      "￥0",
      "¥0",
      "0円",
      "CDN$ 0.00",
      "A$0.00",
      "EUR 0,00",
      "0,00 $",
    ]) {
      expect({ zero, value: findPrice(`Total: ${zero}`)?.value }).toEqual({ zero, value: "0.00" });
    }
    expect(findPrice("注文合計: ￥1,980")?.value).toBe("1980.00");
    expect(findPrice("Total de la commande : 32,99 $")?.value).toBe("32.99");
  });
});

describe("links", () => {
  test("undoes Amazon's click-tracking redirects, absolute and relative", () => {
    const a = resolveUrl(
      "https://www.amazon.com/gp/r.html?C=1&U=https%3A%2F%2Fwww.amazon.com%2Fgp%2Fproduct%2FB07578W7KY%2Fref%3Dx&H=2",
    );
    expect(a?.pathname).toBe("/gp/product/B07578W7KY/ref=x");
    const b = resolveUrl(
      "https://www.amazon.com/gp/f.html?C=1&U=%2Fdp%2FB079ZV4V3C%3Fref_%3Dfed&H=2",
    );
    expect(b?.toString()).toBe("https://www.amazon.com/dp/B079ZV4V3C?ref_=fed");
    // A redirect on someone else's host is not followed.
    const c = resolveUrl(
      "https://evil.example/gp/r.html?U=https%3A%2F%2Fwww.amazon.com%2Fdp%2FB079ZV4V3C",
    );
    expect(c?.hostname).toBe("evil.example");
    expect(resolveUrl("javascript:alert(1)")).toBeNull();
    expect(resolveUrl("not a url")).toBeNull();
  });

  test("reads ASINs from /dp/, /gp/product/, SEO paths and asin= on Amazon hosts only", () => {
    const asin = (u: string) => asinOf(resolveUrl(u));
    expect(asin("https://www.amazon.com/dp/B0BNQDVLGN")).toBe("B0BNQDVLGN");
    expect(asin("https://www.amazon.co.uk/dp/b08bcdmhqm/ref=pe_1_TE_dp_1")).toBe("B08BCDMHQM");
    expect(asin("https://www.amazon.com/gp/product/B0DH37QQZN/?ref_=x")).toBe("B0DH37QQZN");
    expect(asin("https://www.amazon.com/Fill-O-Matic-2000/dp/B07D6SN5K6/ref=sr_1")).toBe(
      "B07D6SN5K6",
    );
    expect(asin("https://www.amazon.com/review/create?asin=B07D6SN5K6")).toBe("B07D6SN5K6");
    expect(asin("https://www.amazon.it/dp/8804668237")).toBe("8804668237");
    expect(asin("https://amazon.com.evil.io/dp/B0BNQDVLGN")).toBeNull();
    expect(asin("https://www.amazon.com/dp/NOTANASIN1")).toBeNull();
    expect(asin("https://www.amazon.com/gp/css/order-history")).toBeNull();
  });

  test("order numbers come from orderId/orderID parameters of Amazon links only", () => {
    const doc = docFromHtml(
      '<a href="https://www.amazon.com/gp/css/order-details?orderID=113-9615736-3549843">x</a>' +
        '<a href="https://evil.example/?orderId=999-9999999-9999999">y</a>' +
        '<a href="https://www.amazon.com/gp/product/B07578W7KY/ref=pe_1/143-4316046-7858437">z</a>',
    );
    expect(linkOrderNumbers(doc.links).map((o) => o.number)).toEqual(["113-9615736-3549843"]);
  });
});

describe("the flat document", () => {
  test("decodes entities, skips comments, styles and Outlook-only copies, keeps aria amounts", () => {
    const doc = docFromHtml(
      "<html><head><title>T</title><style>td{color:red}</style></head><body>" +
        "<table><tr><td>Caf&eacute; &amp; Bar&nbsp;&rsquo;s</td><td>Order #&#8235;113-9615736-3549843</td></tr></table>" +
        '<!--[if mso]><table><tr><td>MSO ONLY</td></tr></table><![endif]--><span aria-label="{amount=6.13, currencyCode={code=USD}}"><!--[if !mso]><!--><sup>$</sup>6<sup>13</sup><!--<![endif]--></span>' +
        "<script>var x = 'Order #999-9999999-9999999';</script></body></html>",
    );
    expect(doc.lines).toEqual(["Café & Bar ’s", "Order #113-9615736-3549843", "$613"]);
    expect(doc.amounts).toEqual([{ value: "6.13", line: 2 }]);
  });

  test("links keep their title, text, images and line", () => {
    const doc = docFromHtml(
      '<p>Intro</p><a href="https://www.amazon.com/dp/B0BNQDVLGN" title="Full &quot;Name&quot;"><img src="https://m.media-amazon.com/images/I/41x.jpg" alt="Alt name"> Short...</a>',
    );
    expect(doc.links).toHaveLength(1);
    expect(doc.links[0]).toMatchObject({
      title: 'Full "Name"',
      text: "Short...",
      line: 1,
      imgs: [{ src: "https://m.media-amazon.com/images/I/41x.jpg", alt: "Alt name" }],
    });
  });

  test("plain text: quoting stripped, URLs become links and leave the lines", () => {
    const doc = docFromText(
      "> Order #123-1234567-1234567 <https://www.amazon.com/gp/css/order-details?orderId=113-1111111-2222222>\n>\n> Arriving:\n",
    );
    expect(doc.lines).toEqual(["Order #123-1234567-1234567", "Arriving:"]);
    expect(linkOrderNumbers(doc.links).map((o) => o.number)).toEqual(["113-1111111-2222222"]);
  });
});

describe("order numbers", () => {
  test("only with an order label before them", () => {
    const found = textOrderNumbers([
      "Order #113-5838173-8241820",
      "Ordine n° 405-5236882-9395563",
      "Order # \u202b026-3012033-7923515",
      "Order #",
      "111-7634359-8390444",
      "Bestellnummer 302-1234567-7654321",
      "session 143-4316046-7858437",
      "Order #113-999999-8459426",
    ]).map((o) => o.number);
    expect(found).toEqual([
      "113-5838173-8241820",
      "405-5236882-9395563",
      "026-3012033-7923515",
      "111-7634359-8390444",
      "302-1234567-7654321",
    ]);
  });

  test("subject forms", () => {
    expect(subjectOrderNumber("Your Amazon.com order #113-1234567-1234567 has shipped")).toBe(
      "113-1234567-1234567",
    );
    expect(subjectOrderNumber("Delivered: 2 items | Order # 111-9196457-7912345")).toBe(
      "111-9196457-7912345",
    );
    expect(subjectOrderNumber("Shipped: Now arriving early (#113-9999999-8459426)")).toBe(
      "113-9999999-8459426",
    );
    expect(subjectOrderNumber('Ordered: "Thing 113-9999999-8459426"')).toBeNull();
  });
});

describe("findCut", () => {
  test("stops at the first recommendation or footer heading after the order", () => {
    const lines = ["Buy Again", "Order #1", "Item", "Keep shopping for", "Reco"];
    expect(findCut(lines, 1)).toBe(3);
    expect(findCut(["Order #1", "We hope to see you again soon.", "x"], 0)).toBe(1);
    expect(findCut(["Order #1", "Item"], 0)).toBe(2);
  });
});

describe("subjectItem", () => {
  test("quoted names, straight or typographic, with a quantity before them", () => {
    expect(subjectItem('Ordered: "Sabco Dustpan Set, Green (2..."')?.productname).toBe(
      "Sabco Dustpan Set, Green (2...",
    );
    const q = subjectItem('Ordered: 2 "solaround Acrylic Side..."');
    expect(q?.productname).toBe("solaround Acrylic Side...");
    expect(q?.quantity).toBe(2);
    expect(subjectItem("Out for delivery: ‘Mopeka 024-2003 Tank Pro...’")?.productname).toBe(
      "Mopeka 024-2003 Tank Pro...",
    );
    expect(subjectItem("Shipped: ‘Women’s Running Shoes...’")?.productname).toBe(
      "Women’s Running Shoes...",
    );
    expect(subjectItem("Versandt: „Kaffeemühle aus Edelstahl...“")?.productname).toBe(
      "Kaffeemühle aus Edelstahl...",
    );
    expect(subjectItem("Delivered: 2 items | Order # 111-9196457-7912345")).toBeNull();
  });
});

describe("findEstimate and findTotal on real layouts' lines", () => {
  const all = (lines: string[]): Range[] => [[0, lines.length]];
  const REF = new Date("2025-05-05T08:00:00Z");

  test("the track button's label after 'Lieferung' is not a date; the estimate below it is", () => {
    const lines = [
      "Dein Paket wurde versendet!",
      "Lieferung verfolgen",
      "Voraussichtlich am Mittwoch, 7. Mai",
    ];
    expect(findEstimate(lines, all(lines), "DE", REF)).toEqual({
      text: "Voraussichtlich am Mittwoch, 7. Mai",
      day: "2025-05-07",
      unreadLabel: false,
    });
  });

  test("a label with no date anywhere is reported unread, not guessed", () => {
    const lines = ["Bestellnr.", "302-4417203-9150341", "Lieferung verfolgen"];
    expect(findEstimate(lines, all(lines), "DE", REF)).toEqual({
      text: null,
      day: null,
      unreadLabel: true,
    });
  });

  test("'Ankunft morgen' and the Italian label on its own line", () => {
    const de = ["Ankunft morgen"];
    expect(findEstimate(de, all(de), "DE", REF).day).toBe("2025-05-06");
    const it = ["La tua data di consegna prevista è:", "martedì 24 marzo 2015"];
    expect(findEstimate(it, all(it), "IT", REF)).toMatchObject({
      text: "martedì 24 marzo 2015",
      day: "2015-03-24",
    });
  });

  test("totals: a qualifier before the colon, the amount on the next line, subtotals never", () => {
    const it = [
      "Totale parziale degli articoli:",
      "EUR 48,90",
      "Totale IVA inclusa (ove applicabile):",
      "EUR 60,05",
    ];
    expect(findTotal(it, all(it), "IT")).toBe("60.05");
    const jp = ["小計： ￥ 2,514", "合計（税抜き）： ￥ 2,514", "合計： ￥ 2,640"];
    expect(findTotal(jp, all(jp), "JP")).toBe("2640.00");
    const ca = ["Total 90.39 CAD"];
    expect(findTotal(ca, all(ca), "CA")).toBe("90.39");
    const weak = ["Total savings on this order: $5.00"];
    expect(findTotal(weak, all(weak), "US")).toBeNull();
  });
});
