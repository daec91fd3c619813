/** A native select of the carriers, with an empty choice. */
import type { SelectHTMLAttributes } from "react";
import { CARRIERS, type Carrier } from "../../../src/contract/constants.ts";
import { useT } from "../../i18n/index.ts";
import { carrierLabel } from "../../lib/order-status.ts";

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
          {carrierLabel(c)}
        </option>
      ))}
    </select>
  );
}
