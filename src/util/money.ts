/**
 * Amounts as text, decided here for the server and the web app: how many
 * decimals a currency writes (ISO 4217 minor units as the runtime's Intl knows them: JPY and KRW
 * none, most two) and the stored cents of an amount as the text fields and exports show it
 * ("129.99", "4990" for yen, never "4990.00"). Pure.
 */

const digitsCache = new Map<string, number>();

/** Decimals the currency writes: 0 for JPY, 2 for USD/EUR/GBP; 2 for a code Intl does not know. */
export function currencyDigits(currency: string | null | undefined): number {
  const code = (currency ?? "").toUpperCase();
  let d = digitsCache.get(code);
  if (d === undefined) {
    try {
      d =
        new Intl.NumberFormat("en-US", {
          style: "currency",
          currency: code || "USD",
        }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    d = Math.min(d, 2); // amounts are kept in hundredths (value_cents)
    digitsCache.set(code, d);
  }
  return d;
}

/** Hundredths of the currency's unit → "129.99", "4990" (yen), "-5.00"; plain digits, no signs. */
export function amountText(cents: number, currency: string | null | undefined): string {
  const neg = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100);
  const digits = currencyDigits(currency);
  const text =
    digits === 0 ? String(Math.round(abs / 100)) : `${whole}.${String(abs % 100).padStart(2, "0")}`;
  return neg ? `-${text}` : text;
}
