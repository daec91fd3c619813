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

  test("maps the five marketplaces and nothing else", () => {
    expect(marketplaceOfDomain("amazon.com")).toBe("US");
    expect(marketplaceOfDomain("amazon.co.uk")).toBe("UK");
    expect(marketplaceOfDomain("amazon.ca")).toBe("CA");
    expect(marketplaceOfDomain("amazon.de")).toBe("DE");
    expect(marketplaceOfDomain("amazon.it")).toBe("IT");
    expect(marketplaceOfDomain("amazon.fr")).toBe("unknown");
    expect(marketplaceOfDomain(null)).toBe("unknown");
  });
});
