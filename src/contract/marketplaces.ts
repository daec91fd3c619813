/**
 * The Amazon Vine marketplaces and their currencies (issue 16). Plain constants like constants.ts
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
