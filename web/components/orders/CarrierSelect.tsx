/** A native select of the carriers, with an empty choice. */
import type { SelectHTMLAttributes } from "react";
import { CARRIER_LABELS, CARRIERS, type Carrier } from "../../../src/contract/constants.ts";
import { useT } from "../../i18n/index.ts";

export function CarrierSelect(
  props: Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "role"> & {
    value: Carrier | "";
    onChange: (carrier: Carrier | "") => void;
  },
) {
  const { value, onChange, ...rest } = props;
  const t = useT();
  return (
    <select
      {...rest}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value as Carrier | "")}
    >
      <option value="">{t("tracking.noCarrier")}</option>
      {CARRIERS.map((c) => (
        <option key={c} value={c}>
          {CARRIER_LABELS[c]}
        </option>
      ))}
    </select>
  );
}
