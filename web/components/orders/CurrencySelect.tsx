/** A native select of currencies (ISO 4217): the Vine marketplaces' first, then the order's own. */
import type { SelectHTMLAttributes } from "react";
import { COMMON_CURRENCIES } from "../../../src/contract/marketplaces.ts";
import { currentLanguage, intlLocale, useT } from "../../i18n/index.ts";

/** The English names (as the spec's screens show them); other languages take Intl's names. */
const NAMES: Record<string, string> = {
  USD: "US dollar",
  GBP: "Pound sterling",
  EUR: "Euro",
  JPY: "Japanese yen",
  CAD: "Canadian dollar",
  AUD: "Australian dollar",
};

export function CurrencySelect(
  props: Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "role"> & {
    value: string;
    onChange: (currency: string) => void;
  },
) {
  const { value, onChange, ...rest } = props;
  useT(); // re-renders when the language changes
  const name = currencyName();
  const codes: string[] = [...COMMON_CURRENCIES];
  if (value && !codes.includes(value)) codes.push(value);
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {codes.map((c) => (
        <option key={c} value={c}>
          {name(c) ? `${c} – ${name(c)}` : c}
        </option>
      ))}
    </select>
  );
}

/** A currency's name in the reader's language ("Britisches Pfund", "英国ポンド"), or "". */
function currencyName(): (code: string) => string {
  if (currentLanguage() === "en") return (code) => NAMES[code] ?? "";
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([intlLocale()], { type: "currency", fallback: "none" });
  } catch {
    // no display names in this browser: the code alone
  }
  return (code) => {
    try {
      return names?.of(code) ?? "";
    } catch {
      return "";
    }
  };
}
