/** A native select of the seven statuses. */
import type { SelectHTMLAttributes } from "react";
import { ORDER_STATUSES, type OrderStatus } from "../../../src/contract/constants.ts";
import { useT } from "../../i18n/index.ts";
import { statusLabel } from "../../lib/order-status.ts";

export function StatusSelect(
  props: Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "role"> & {
    value: OrderStatus;
    onChange: (status: OrderStatus) => void;
  },
) {
  const { value, onChange, ...rest } = props;
  useT(); // re-renders when the language changes
  return (
    <select
      {...rest}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value as OrderStatus)}
    >
      {ORDER_STATUSES.map((s) => (
        <option key={s} value={s}>
          {statusLabel(s)}
        </option>
      ))}
    </select>
  );
}
