/** A native select of currencies (ISO 4217): the Vine marketplaces' first, then the order's own. */
import type { SelectHTMLAttributes } from "react";
import { COMMON_CURRENCIES } from "../../../src/contract/marketplaces.ts";

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
  const codes: string[] = [...COMMON_CURRENCIES];
  if (value && !codes.includes(value)) codes.push(value);
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {codes.map((c) => (
        <option key={c} value={c}>
          {NAMES[c] ? `${c} – ${NAMES[c]}` : c}
        </option>
      ))}
    </select>
  );
}
