/**
 * The app's one labelled field: a label, its control, an error and a hint, with the control's id,
 * `aria-invalid` and `aria-describedby` (error first, then hint) wired in one place.
 *
 * Two drawings, both Pico's: `wrap` (the default) puts the control, error and hint inside the
 * label, as the account, sign-in and Vine forms are drawn; `stack` puts the label above the
 * control as a sibling (`<label for>`), as the order forms and a few selects are drawn, inside a
 * `<div>` when `className` is given (`""`: a plain `<div>`). The label's text is the control's accessible name, so e2e
 * tests and docs/screens.md name controls by it.
 */
import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from "react";

/** What the control must spread onto its element. */
export type FieldControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

export type FieldProps = {
  label: ReactNode;
  control: (a: FieldControlProps) => ReactNode;
  /** A message under the control; marks the control invalid and describes it. */
  error?: string | undefined;
  /** Marks the control invalid when the message is shown elsewhere (a form-wide alert). */
  invalid?: boolean;
  hint?: ReactNode;
  /** Shows the red asterisk after the label (the control carries its own `required`). */
  required?: boolean | undefined;
  /** The control's id (generated when not given); the hint's id is `${id}-hint`. */
  id?: string;
  className?: string | undefined;
  layout?: "wrap" | "stack";
};

export function Field(props: FieldProps) {
  const generated = useId();
  const id = props.id ?? generated;
  const errorId = `${id}-message`;
  const hintId = `${id}-hint`;
  const described = [props.error ? errorId : null, props.hint ? hintId : null]
    .filter(Boolean)
    .join(" ");
  const stack = props.layout === "stack";
  const label = (
    <>
      {props.label}
      {props.required && (
        <span className="required" aria-hidden="true">
          {" "}
          *
        </span>
      )}
    </>
  );
  const rest = (
    <>
      {props.control({
        id,
        "aria-invalid": props.error || props.invalid ? true : undefined,
        "aria-describedby": described || undefined,
      })}
      {props.error && (
        <small id={errorId} className="field-error">
          {props.error}
        </small>
      )}
      {props.hint && (
        <small id={hintId} className={stack ? "field-hint" : undefined}>
          {props.hint}
        </small>
      )}
    </>
  );
  if (!stack) {
    return (
      <label className={props.className} htmlFor={id}>
        {label}
        {rest}
      </label>
    );
  }
  const parts = (
    <>
      <label htmlFor={id}>{label}</label>
      {rest}
    </>
  );
  if (props.className === undefined) return parts;
  return <div className={props.className || undefined}>{parts}</div>;
}

type InputAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "value" | "onChange" | "aria-invalid" | "aria-describedby"
>;

/** The common case: one `<input>` with a string value in a wrapping `Field`. */
export function InputField(
  props: InputAttributes & {
    label: ReactNode;
    value: string;
    onValue: (value: string) => void;
    hint?: ReactNode;
    error?: string | undefined;
  },
) {
  const { label, hint, error, onValue, ...input } = props;
  return (
    <Field
      label={label}
      hint={hint}
      error={error}
      control={(a) => <input {...a} {...input} onChange={(e) => onValue(e.currentTarget.value)} />}
    />
  );
}

type Option = { value: string | number; label: ReactNode };
type SelectAttributes = Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "id" | "value" | "onChange" | "aria-invalid" | "aria-describedby"
>;

/** A `<select>` of `options` in a `Field`; `onValue` gets the chosen option's value as text. */
export function SelectField(
  props: SelectAttributes &
    Pick<FieldProps, "label" | "hint" | "invalid" | "id" | "layout" | "className"> & {
      value: string;
      onValue: (value: string) => void;
      options: readonly Option[];
    },
) {
  const { label, hint, invalid, id, layout, className, value, onValue, options, ...select } = props;
  const field = { label, hint, invalid, layout, className, ...(id ? { id } : {}) };
  return (
    <Field
      {...field}
      control={(a) => (
        <select {...a} {...select} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
          <Options options={options} />
        </select>
      )}
    />
  );
}

type CheckAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "type" | "checked" | "onChange" | "role" | "aria-checked"
>;

/**
 * A checkbox, radio or switch with its text after it, inside its label (Pico's check pattern).
 * A switch is a checkbox with `role="switch"` and `aria-checked`.
 */
export function Check(
  props: CheckAttributes & {
    label: ReactNode;
    checked: boolean;
    onChecked: (on: boolean) => void;
    kind?: "checkbox" | "radio" | "switch";
    labelClassName?: string;
  },
) {
  const { label, checked, onChecked, kind = "checkbox", labelClassName, ...input } = props;
  // A switch is announced as one, with its state.
  const role = kind === "switch" ? { role: "switch", "aria-checked": checked } : {};
  return (
    <label className={labelClassName}>
      <input
        {...input}
        {...role}
        type={kind === "radio" ? "radio" : "checkbox"}
        checked={checked}
        onChange={(e) => onChecked(e.currentTarget.checked)}
      />
      {label}
    </label>
  );
}

/** A select's options from a list of values and labels. */
export function Options(props: { options: readonly Option[] }) {
  return props.options.map((o) => (
    <option key={o.value} value={String(o.value)}>
      {o.label}
    </option>
  ));
}
