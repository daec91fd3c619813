/**
 * Amounts of money as Amazon's mail writes them, in every marketplace: a currency symbol or ISO
 * code before or after the number, with or without a space (`$12.99`, `EUR 60,05`, `60,05 €`,
 * `79.99 CAD`, `1,010 JPY`, `￥ 9,103`, `0円`, `CDN$ 0.00`, `A$0.00`), full-width digits,
 * thin or no-break spaces, `1.234,56` and `1,234.56`.
 *
 * A leaf of the reader (imports nothing of it). Two steps:
 * 1. `MONEY` finds where an amount is: a currency marker next to a run of digits and separators.
 *    It only locates; it is linear (no nested quantifiers) and runs on one capped line.
 * 2. @internationalized/number's NumberParser reads the number with the marketplace's locale
 *    (`de-DE` reads `1.234,56`, `en-CA` reads `1,234.56`, `fr-CA` reads `1 234,56`). When the
 *    written decimal separator is not the locale's (an English-language amazon.de account writes
 *    `EUR 12.99`), the locale with that separator reads it: the one decision of which separator
 *    is the decimal one is `localeFor` below.
 */
import { NumberParser } from "@internationalized/number";
import type { Marketplace } from "./types.ts";

export type Money = {
  /** Normalised "1234.56". */
  value: string;
  /** ISO 4217 code the marker names ("$" is the marketplace's dollar). */
  currency: string;
  index: number;
  end: number;
};

const LOCALE: Record<Marketplace, string> = {
  US: "en-US",
  UK: "en-GB",
  DE: "de-DE",
  FR: "fr-FR",
  IT: "it-IT",
  ES: "es-ES",
  JP: "ja-JP",
  CA: "en-CA",
  AU: "en-AU",
  unknown: "en-US",
};

const DOLLAR: Partial<Record<Marketplace, string>> = { CA: "CAD", AU: "AUD" };

/** Markers and the currency each names; "$" and "" are resolved by the marketplace. */
const MARKERS: Record<string, string> = {
  US$: "USD",
  CA$: "CAD",
  CDN$: "CAD",
  C$: "CAD",
  AU$: "AUD",
  A$: "AUD",
  $: "$",
  "£": "GBP",
  "€": "EUR",
  "¥": "JPY",
  "￥": "JPY",
  円: "JPY",
  "₹": "INR",
  EUR: "EUR",
  GBP: "GBP",
  USD: "USD",
  CAD: "CAD",
  AUD: "AUD",
  JPY: "JPY",
  CHF: "CHF",
  INR: "INR",
};

const MARK = "US\\$|CA\\$|CDN\\$|C\\$|AU\\$|A\\$|\\$|£|€|¥|￥|₹|EUR|GBP|USD|CAD|AUD|JPY|CHF|INR";
/** Digits with "." "," "'" as separators, or a space only before a group of three digits. */
const NUM = "\\d(?:[\\d.,'’]|[ \\u00a0\\u202f\\u2009](?=\\d{3}(?!\\d)))*";
/** Marker then number, or number then marker (円 included); not inside a word or a longer number. */
export const MONEY = new RegExp(
  `(?<![\\p{L}\\d])(?:(${MARK})\\s?(-?${NUM})|(${NUM})\\s?(${MARK}|円))(?![\\p{L}\\d])`,
  "u",
);

/** Full-width digits and separators (Japanese mail) → ASCII; same length, so indexes hold. */
export function halfWidth(s: string): string {
  return s.replace(/[\uff10-\uff19\uff0c\uff0e]/g, (c) => {
    const code = c.charCodeAt(0);
    if (code === 0xff0c) return ",";
    if (code === 0xff0e) return ".";
    return String.fromCharCode(code - 0xff10 + 48);
  });
}

const parsers = new Map<string, NumberParser>();
function parserFor(locale: string): NumberParser {
  let p = parsers.get(locale);
  if (!p) {
    p = new NumberParser(locale, { style: "decimal" });
    parsers.set(locale, p);
  }
  return p;
}

const POINT_LOCALES = new Set(["en-US", "en-GB", "en-CA", "en-AU", "ja-JP"]);

/**
 * The locale that reads `num`: the marketplace's, unless the number's last separator says the
 * locale is wrong. Amounts have two decimals or none, so a last separator followed by one or two
 * digits is the decimal separator and one followed by three is a grouping one; when that is not
 * what the locale writes (an English-language amazon.de account writes `EUR 12.99`, an amazon.com
 * forward of a German order `1.234`), a locale that writes it so reads the number.
 */
function localeFor(num: string, market: Marketplace): string {
  const locale = LOCALE[market];
  const m = /([.,])(\d+)$/.exec(num);
  if (!m || (m[2] ?? "").length > 3) return locale;
  const decimal = (m[2] ?? "").length < 3 ? m[1] : m[1] === "." ? "," : ".";
  if ((decimal === ".") === POINT_LOCALES.has(locale)) return locale;
  return decimal === "," ? (market === "CA" ? "fr-CA" : "de-DE") : "en-US";
}

/** A written number ("1.234,56", "1,010", "0") as "1234.56" in `market`'s way of writing it. */
export function readNumber(raw: string, market: Marketplace = "unknown"): string | null {
  const num = halfWidth(raw)
    .replace(/[\s\u00a0\u202f\u2009'’]/g, "")
    .replace(/[.,]+$/, "");
  if (!/^-?\d[\d.,]{0,20}$/.test(num)) return null;
  const n = parserFor(localeFor(num, market)).parse(num);
  if (!Number.isFinite(n) || n < 0 || n > 1e9) return null;
  return n.toFixed(2);
}

/** The first amount of money written in `s`, or null. */
export function findMoney(s: string, market: Marketplace = "unknown"): Money | null {
  const line = halfWidth(s);
  const m = MONEY.exec(line);
  if (!m) return null;
  const marker = m[1] ?? m[4] ?? "";
  const num = m[2] ?? m[3] ?? "";
  if (num.startsWith("-")) return null;
  const value = readNumber(num, market);
  if (value === null) return null;
  let currency = MARKERS[marker] ?? "";
  if (currency === "$") currency = DOLLAR[market] ?? "USD";
  return { value, currency, index: m.index, end: m.index + m[0].length };
}

/** A line that is an amount and nothing else ("EUR 0,00", "1,010 JPY", "-$3.00"). */
export function isMoneyOnly(s: string, market: Marketplace = "unknown"): boolean {
  const t = s.trim().replace(/^-\s?/, "");
  if (t.length > 40) return false;
  const m = findMoney(t, market);
  return m !== null && m.index === 0 && m.end === halfWidth(t).length;
}
