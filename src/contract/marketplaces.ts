/**
 * The Amazon Vine marketplaces and their currencies. Plain constants like constants.ts
 * (web/ may import values from here), in their own file so the first screen does not carry them.
 */
/** The Amazon Vine marketplaces the mail reader knows; "unknown" is any other Amazon domain. */
export const MARKETPLACES = ["US", "UK", "DE", "FR", "IT", "ES", "JP", "CA", "AU"] as const;
export type MarketplaceCode = (typeof MARKETPLACES)[number];
/** The one place a marketplace's currency (ISO 4217) is decided. */
export const MARKETPLACE_CURRENCY: Record<MarketplaceCode, string> = {
  US: "USD",
  UK: "GBP",
  DE: "EUR",
  FR: "EUR",
  IT: "EUR",
  ES: "EUR",
  JP: "JPY",
  CA: "CAD",
  AU: "AUD",
};
export const DEFAULT_CURRENCY = "USD";
/** Currencies offered first in the order forms (any ISO 4217 code is accepted by the API). */
export const COMMON_CURRENCIES = ["USD", "GBP", "EUR", "JPY", "CAD", "AUD"] as const;

/** Each marketplace's Amazon site ("www.amazon." + this): review, product and reference links. */
export const MARKETPLACE_DOMAIN: Record<MarketplaceCode, string> = {
  US: "com",
  UK: "co.uk",
  DE: "de",
  FR: "fr",
  IT: "it",
  ES: "es",
  JP: "co.jp",
  CA: "ca",
  AU: "com.au",
};

/**
 * Days a Vine parcel usually takes from "Shipped" to the door on each marketplace (our own
 * figure from Vine mail: shipped and delivered dates of the same orders). Only a default offered
 * for "Mark delivered" on orders nobody tracks (docs/behaviour.md#states-and-transitions).
 */
export const USUAL_DELIVERY_DAYS: Record<MarketplaceCode, number> = {
  US: 3,
  UK: 2,
  DE: 2,
  FR: 3,
  IT: 3,
  ES: 3,
  JP: 2,
  CA: 5,
  AU: 5,
};

const isMarketplace = (m: string | null | undefined): m is MarketplaceCode =>
  m != null && (MARKETPLACES as readonly string[]).includes(m);

/**
 * The marketplace an order was placed on, decided here alone (orders keep no marketplace column):
 * the Amazon site of its product URL; else the one marketplace of its currency (USD, GBP, JPY,
 * CAD, AUD); for euros the user's marketplace when it is a euro one, else Germany; else the
 * user's marketplace.
 */
export function orderMarketplace(
  order: { producturl?: string | null; currency?: string | null },
  userMarketplace: string | null | undefined,
): MarketplaceCode {
  const host = /^https?:\/\/(?:[a-z0-9-]+\.)*amazon\.([a-z.]+?)(?:[:/?#]|$)/i.exec(
    order.producturl ?? "",
  )?.[1];
  if (host) {
    const hit = MARKETPLACES.find((m) => MARKETPLACE_DOMAIN[m] === host.toLowerCase());
    if (hit) return hit;
  }
  const user = isMarketplace(userMarketplace) ? userMarketplace : null;
  const currency = (order.currency ?? "").toUpperCase();
  const byCurrency = MARKETPLACES.filter((m) => MARKETPLACE_CURRENCY[m] === currency);
  if (user && byCurrency.includes(user)) return user;
  if (byCurrency.length >= 1) return byCurrency[0]!;
  return user ?? "US";
}

/** https://www.amazon.<domain> of an order's marketplace. */
export function amazonSite(marketplace: MarketplaceCode): string {
  return `https://www.amazon.${MARKETPLACE_DOMAIN[marketplace]}`;
}

/**
 * "Mark delivered"'s default day: the shipped day plus the marketplace's usual
 * days, never after `today` (both YYYY-MM-DD).
 */
export function usualDeliveredDay(
  shippedDay: string,
  marketplace: MarketplaceCode,
  today: string,
): string {
  const [y, m, d] = shippedDay.split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d + USUAL_DELIVERY_DAYS[marketplace]))
    .toISOString()
    .slice(0, 10);
  return day > today ? today : day;
}
