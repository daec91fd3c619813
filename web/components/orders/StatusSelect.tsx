/** A native select of the seven statuses. */
import type { SelectHTMLAttributes } from "react";
import { ORDER_STATUSES, type OrderStatus } from "../../../src/contract/constants.ts";
import { useAutoFocus } from "../../hooks/useAutoFocus.ts";

export function StatusSelect(
  props: Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "role"> & {
    value: OrderStatus;
    onChange: (status: OrderStatus) => void;
  },
) {
  const { value, onChange, autoFocus, ...rest } = props;
  const ref = useAutoFocus<HTMLSelectElement>(autoFocus === true);
  return (
    <select
      {...rest}
      ref={ref}
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
