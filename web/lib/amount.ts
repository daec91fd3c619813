/**
 * Amounts as typed in the order forms, in their own module so that the
 * dashboard's first load does not carry the number parser (Add and Edit Order are lazy). Pure
 * apart from reading the browser's and the app's language; its messages are in the reader's.
 */
import { NumberParser } from "@internationalized/number";
import { amountText, currencyDigits } from "../../src/util/money.ts";
import { intlLocale, translate } from "../i18n/index.ts";

/** Home language of each marketplace currency: its decimal mark decides whether "129,99" is. */
const CURRENCY_LOCALE: Record<string, string> = {
  USD: "en-US",
  GBP: "en-GB",
  EUR: "de-DE",
  JPY: "ja-JP",
  CAD: "en-CA",
  AUD: "en-AU",
};

const writesDecimalComma = (locale: string | undefined): boolean => {
  if (!locale) return false;
  try {
    const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal");
    return part?.value === ",";
  } catch {
    return false;
  }
};

/** The browser's language, when there is a browser. */
const browserLocale = (): string | undefined =>
  typeof navigator === "undefined" ? undefined : navigator.language;

export type AmountResult = { ok: true; value: string } | { ok: false; error: string };

/**
 * An amount as typed in an order form → the API's text ("129.99"; "4990" for yen), or the
 * message to show. A comma followed by one or two digits at the end is the decimal mark where
 * the order's currency, the browser's language or the app's language writes one ("129,99", "1.234,50" in euros or in
 * German); anywhere else a comma groups thousands ("1,234.50"). Currencies without decimals (yen)
 * take whole numbers only. Parsing is @internationalized/number's NumberParser (locale-aware
 * grouping and decimal marks, tolerant of spaces and signs).
 */
export function parseAmount(
  text: string,
  currency: string,
  locale: string | undefined = browserLocale(),
  parser: (locale: string, text: string) => number = defaultParse,
): AmountResult {
  const t = text.trim().replace(/^[$€£¥]\s*|\s*[$€£¥]$/g, "");
  if (t === "") return { ok: true, value: "" };
  const bad: AmountResult = { ok: false, error: translate("form.error.amount") };
  if (!/^[\d.,\s\u00a0\u202f]+$/.test(t)) return bad;
  const digits = currencyDigits(currency);
  const commaDecimal =
    /,\d{1,2}$/.test(t) &&
    digits > 0 &&
    (writesDecimalComma(CURRENCY_LOCALE[currency.toUpperCase()]) ||
      writesDecimalComma(locale) ||
      writesDecimalComma(intlLocale()));
  const noDecimals: AmountResult = {
    ok: false,
    error: translate("form.error.noDecimals", {
      currency,
      example: t.replace(/[.,]\d{1,2}$/, "").replace(/\D/g, ""),
    }),
  };
  // "129,99" where nothing writes a decimal comma is not 12999: it is refused, not guessed.
  if (/,\d{1,2}$/.test(t) && !commaDecimal) return digits === 0 ? noDecimals : bad;
  const n = parser(commaDecimal ? "de-DE" : "en-US", t.replace(/[\s\u00a0\u202f]/g, ""));
  if (!Number.isFinite(n) || n < 0) return bad;
  const cents = Math.round(n * 100);
  if (Math.abs(n * 100 - cents) > 1e-6) return bad; // more than two decimals
  if (digits === 0 && cents % 100 !== 0) return noDecimals;
  return { ok: true, value: amountText(cents, currency) };
}

/**
 * An amount from the API ("24.99") as the order form shows it to this reader: with a decimal
 * comma where the app's language writes one ("24,99" in German, French, Spanish and Italian),
 * which parseAmount reads back as the same amount. No grouping, so the text stays easy to edit.
 */
export function amountForInput(apiText: string): string {
  return /^\d+\.\d{1,2}$/.test(apiText) && writesDecimalComma(intlLocale())
    ? apiText.replace(".", ",")
    : apiText;
}

const parsers = new Map<string, NumberParser>();
function defaultParse(locale: string, text: string): number {
  let p = parsers.get(locale);
  if (!p) {
    p = new NumberParser(locale, { style: "decimal" });
    parsers.set(locale, p);
  }
  return p.parse(text);
}
