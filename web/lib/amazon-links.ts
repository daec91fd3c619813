/**
 * Links to an order's own Amazon site (docs/screens.md 'Write review on
 * Amazon'): the review form, the product page and a published review, on the order's marketplace
 * (`orderMarketplace` of src/contract/marketplaces.ts), not always amazon.com. Pure.
 */
import {
  amazonSite,
  type MarketplaceCode,
  orderMarketplace,
} from "../../src/contract/marketplaces.ts";

type LinkOrder = { asin: string | null; producturl: string | null; currency: string };

const ASIN = /^[A-Z0-9]{10}$/i;

/** The order's Amazon site, e.g. "https://www.amazon.de". */
export function orderSite(order: LinkOrder, userMarketplace: MarketplaceCode | null | undefined) {
  return amazonSite(orderMarketplace(order, userMarketplace));
}

/** Amazon's "Write a review" form for the order's ASIN; null without a usable ASIN. */
export function writeReviewUrl(
  order: LinkOrder,
  userMarketplace: MarketplaceCode | null | undefined,
): string | null {
  const asin = (order.asin ?? "").trim();
  if (!ASIN.test(asin)) return null;
  return `${orderSite(order, userMarketplace)}/review/create-review?asin=${asin.toUpperCase()}`;
}

/** The product URL when it is an http(s) address; else the ASIN's page on the order's site. */
export function productPageUrl(
  order: LinkOrder,
  userMarketplace: MarketplaceCode | null | undefined,
): string | null {
  const url = (order.producturl ?? "").trim();
  if (url) {
    try {
      const u = new URL(url);
      if (u.protocol === "http:" || u.protocol === "https:") return url;
    } catch {
      // not an address: fall back to the ASIN
    }
  }
  const asin = (order.asin ?? "").trim();
  if (!ASIN.test(asin)) return null;
  return `${orderSite(order, userMarketplace)}/dp/${asin.toUpperCase()}`;
}
