/**
 * Form plumbing shared by the Edit Order tabs and Add Order: the form state type, how their
 * fields are drawn, and a text input bound to one form field.
 */
import type { ChangeEvent, ReactNode } from "react";
import { Field, type FieldControlProps } from "../../components/Field.tsx";
import type { FormField, OrderForm } from "../../lib/order-form.ts";
import type { FormErrors } from "../../lib/order-validation.ts";

export type FormProps = {
  form: OrderForm;
  errors: FormErrors;
  set: <K extends FormField>(field: K, value: OrderForm[K]) => void;
};

/** How the order forms draw a `Field`: the label above its control, compact (`.field`). */
export const ORDER_FIELD = { layout: "stack", className: "field" } as const;

/** A text input bound to one form field. */
export function TextInput(
  props: FormProps & {
    field: Exclude<FormField, "status" | "carrier" | "rating" | "reviewexempt">;
    label: string;
    required?: boolean;
    type?: "text" | "date" | "url";
    hint?: ReactNode;
    placeholder?: string;
    maxLength?: number;
    multiline?: boolean;
    inputMode?: "decimal" | "url" | "text";
    autoComplete?: string;
  },
) {
  const value = props.form[props.field];
  return (
    <Field
      {...ORDER_FIELD}
      label={props.label}
      required={props.required}
      error={props.errors[props.field]}
      hint={props.hint}
      control={(a) =>
        props.multiline ? (
          <textarea
            {...a}
            name={props.field}
            rows={3}
            value={value}
            placeholder={props.placeholder}
            maxLength={props.maxLength}
            onChange={(e) => props.set(props.field, e.currentTarget.value)}
          />
        ) : (
          <FieldInput
            {...a}
            name={props.field}
            type={props.type ?? "text"}
            value={value}
            placeholder={props.placeholder}
            maxLength={props.maxLength}
            inputMode={props.inputMode}
            autoComplete={props.autoComplete ?? "off"}
            onValue={(v) => props.set(props.field, v)}
          />
        )
      }
    />
  );
}

/**
 * One `<input>` of a text, link or date field. A date input gets no placeholder, length or
 * input mode (they mean nothing there).
 */
function FieldInput(
  props: FieldControlProps & {
    name: string;
    type: "text" | "date" | "url";
    value: string;
    placeholder: string | undefined;
    maxLength: number | undefined;
    inputMode: "decimal" | "url" | "text" | undefined;
    autoComplete: string;
    onValue: (value: string) => void;
  },
) {
  const { type, placeholder, maxLength, inputMode, onValue, ...common } = props;
  const onChange = (e: ChangeEvent<HTMLInputElement>) => onValue(e.currentTarget.value);
  if (type === "date") return <input {...common} type="date" onChange={onChange} />;
  const text = { ...common, placeholder, maxLength, inputMode, onChange };
  return type === "url" ? <input {...text} type="url" /> : <input {...text} type="text" />;
}
