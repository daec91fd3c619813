/** A native select of the seven statuses. */
import type { SelectHTMLAttributes } from "react";
import { ORDER_STATUSES, type OrderStatus } from "../../../src/contract/constants.ts";

export function StatusSelect(
  props: Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "role"> & {
    value: OrderStatus;
    onChange: (status: OrderStatus) => void;
  },
) {
  const { value, onChange, ...rest } = props;
  return (
    <select
      {...rest}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value as OrderStatus)}
    >
      {ORDER_STATUSES.map((s) => (
        <option key={s} value={s}>
          {s}
        </option>
      ))}
    </select>
  );
}
