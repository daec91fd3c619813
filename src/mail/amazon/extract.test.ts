import { describe, expect, test } from "bun:test";
import {
  asinOf,
  clean,
  docFromHtml,
  docFromText,
  findCut,
  findPrice,
  linkOrderNumbers,
  normalisePrice,
  resolveUrl,
  subjectItem,
  subjectOrderNumber,
  textOrderNumbers,
} from "./extract.ts";

describe("clean", () => {
  test("drops zero-width padding and bidi marks, collapses white space", () => {
    expect(clean("Order #\u00a0\u202b113-9615736-3549843")).toBe("Order # 113-9615736-3549843");
    expect(clean("Ordered\u034f \u200c \u00a0 \u2007 \u00ad\u034f x")).toBe("Ordered x");
    expect(clean("  a\n\t b  ")).toBe("a b");
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
