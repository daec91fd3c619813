import { describe, expect, test } from "bun:test";
import {
  AMAZON_SENDER_DOMAINS,
  amazonDomainOf,
  isAmazonSender,
  marketplaceOfDomain,
} from "./senders.ts";

describe("isAmazonSender", () => {
  test.each([
    "auto-confirm@amazon.com",
    "Shipment-Tracking@Amazon.COM",
    "order-update@amazon.co.uk",
    "conferma-spedizione@amazon.it",
    "versandbestaetigung@amazon.de",
    "auto-confirm@amazon.ca",
    "no-reply@marketplace.amazon.com",
    "thehub@amazon.com",
    "x@bounces.amazon.co.uk",
    "auto-confirm@amazon.com.au",
    "auto-confirm@amazon.co.jp",
  ])("%s is Amazon's", (a) => {
    expect(isAmazonSender(a)).toBe(true);
  });

  test.each([
    "someone@amazon.com.evil.io",
    "someone@notamazon.com",
    "someone@amazon-com.net",
    "0100018f@email.amazonses.com",
    "x@amazonses.com",
    "x@compute.amazonaws.com",
    "x@amazon",
    "x@amazon.co",
    "x@gmail.com",
    '"auto-confirm@amazon.com"@evil.io',
    "auto-confirm@amazon.com@evil.io",
    "amazon.com",
    "@amazon.com",
    "x@",
    "",
    "x@amazon..com",
    "x@.amazon.com",
    "x@amazon.com\u0000.evil.io",
  ])("%p is not Amazon's", (a) => {
    expect(isAmazonSender(a)).toBe(false);
  });

  test("null and undefined are not Amazon's", () => {
    expect(isAmazonSender(null)).toBe(false);
    expect(isAmazonSender(undefined)).toBe(false);
  });

  test("the list is exported, has no SES or AWS domain, and no duplicates", () => {
    expect(AMAZON_SENDER_DOMAINS).toContain("amazon.com");
    expect(AMAZON_SENDER_DOMAINS).toContain("amazon.co.uk");
    expect(AMAZON_SENDER_DOMAINS.some((d) => d.includes("amazonses"))).toBe(false);
    expect(AMAZON_SENDER_DOMAINS.some((d) => d.includes("amazonaws"))).toBe(false);
    expect(new Set(AMAZON_SENDER_DOMAINS).size).toBe(AMAZON_SENDER_DOMAINS.length);
  });
});

describe("amazonDomainOf / marketplaceOfDomain", () => {
  test("picks the marketplace domain of a host", () => {
    expect(amazonDomainOf("www.amazon.co.uk")).toBe("amazon.co.uk");
    expect(amazonDomainOf("smile.amazon.com")).toBe("amazon.com");
    expect(amazonDomainOf("www.amazon.com.au")).toBe("amazon.com.au");
    expect(amazonDomainOf("WWW.AMAZON.DE.")).toBe("amazon.de");
    expect(amazonDomainOf("m.media-amazon.com")).toBeNull();
    expect(amazonDomainOf("images-na.ssl-images-amazon.com")).toBeNull();
  });

  test("maps the nine Vine marketplaces and nothing else", () => {
    expect(marketplaceOfDomain("amazon.com")).toBe("US");
    expect(marketplaceOfDomain("amazon.co.uk")).toBe("UK");
    expect(marketplaceOfDomain("amazon.ca")).toBe("CA");
    expect(marketplaceOfDomain("amazon.de")).toBe("DE");
    expect(marketplaceOfDomain("amazon.it")).toBe("IT");
    expect(marketplaceOfDomain("amazon.fr")).toBe("FR");
    expect(marketplaceOfDomain("amazon.es")).toBe("ES");
    expect(marketplaceOfDomain("amazon.co.jp")).toBe("JP");
    expect(marketplaceOfDomain("amazon.com.au")).toBe("AU");
    expect(marketplaceOfDomain("amazon.nl")).toBe("unknown");
    expect(marketplaceOfDomain("amazon.com.mx")).toBe("unknown");
    expect(marketplaceOfDomain(null)).toBe("unknown");
  });
});

describe("amazonDomainOf against the plain list scan it memoises", () => {
  const reference = (host: string): string | null => {
    let h = host.trim().toLowerCase();
    if (h.endsWith(".")) h = h.slice(0, -1);
    if (!/^[a-z0-9.-]{1,253}$/.test(h) || h.startsWith(".") || h.includes("..")) return null;
    let best: string | null = null;
    for (const d of AMAZON_SENDER_DOMAINS) {
      if ((h === d || h.endsWith(`.${d}`)) && (!best || d.length > best.length)) best = d;
    }
    return best;
  };

  test("20,000 seeded random hosts, asked twice each, past the memo's size", () => {
    let a = 4242;
    const rand = () => {
      a = (a * 1103515245 + 12345) & 0x7fffffff;
      return a / 0x7fffffff;
    };
    const LABELS = ["www", "m", "smile", "x-1", "", ".", "..", " ", "A", "évil", "amazon", "com"];
    const hosts: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      let h = "";
      const n = Math.floor(rand() * 3);
      for (let j = 0; j < n; j++) h += `${LABELS[Math.floor(rand() * LABELS.length)]}.`;
      const d = AMAZON_SENDER_DOMAINS[Math.floor(rand() * AMAZON_SENDER_DOMAINS.length)] ?? "";
      h += rand() < 0.2 ? d.toUpperCase() : rand() < 0.2 ? `x${d}` : d;
      if (rand() < 0.2) h += pickEnd(rand());
      if (rand() < 0.1) h = ` ${h} `;
      hosts.push(h);
    }
    for (const h of [...hosts, ...hosts.reverse()]) {
      if (amazonDomainOf(h) !== reference(h))
        expect([h, amazonDomainOf(h)]).toEqual([h, reference(h)]);
    }
  });

  function pickEnd(r: number): string {
    return [".", ".evil.io", "..", "-x", ".au", ".uk"][Math.floor(r * 6)] ?? "";
  }
});
