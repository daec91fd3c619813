/**
 * The order form's state, shared by Add Order and Edit Order: the values, the messages per field
 * (docs/behaviour.md#validation), setting a field (which clears its message), and the tracking
 * number as it is typed: clearing it or a detected carrier changes the carrier and status
 * (docs/behaviour.md#states-and-transitions). What is sent, and where, stays with each page.
 */
import { useState } from "react";
import { useCarrierDetection } from "../../hooks/useTrackingEntry.ts";
import { dayKey } from "../../lib/order-days.ts";
import {
  type FormField,
  type OrderForm,
  withDetectedCarrier,
  withStatus,
  withTrackingNumber,
} from "../../lib/order-form.ts";
import { type FormErrors, validateOrderForm } from "../../lib/order-validation.ts";

export function useOrderForm(initial: () => OrderForm, timeZone?: string) {
  const [form, setForm] = useState<OrderForm>(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  // Detection runs only for a number the user typed, not for the one the order came with.
  const [typedNumber, setTypedNumber] = useState(false);

  const set = <K extends FormField>(field: K, value: OrderForm[K]) => {
    if (field === "status") {
      // Received (or later) with no delivery date: today, to correct if need be.
      const today = dayKey(new Date(), timeZone) ?? "";
      setForm((f) => withStatus(f, value as OrderForm["status"], today));
    } else setForm((f) => ({ ...f, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const detecting = useCarrierDetection(form.trackingnumber, typedNumber, (carrier) =>
    setForm((f) => withDetectedCarrier(f, carrier)),
  );

  const onTrackingNumber = (value: string) => {
    setTypedNumber(true);
    setForm((f) => withTrackingNumber(f, value));
  };

  /** Shows the messages for these values; the fields that need attention (none: valid). */
  const validate = (values: OrderForm): FormField[] => {
    const problems = validateOrderForm(values);
    setErrors(problems);
    return Object.keys(problems) as FormField[];
  };

  /** The values the server now holds (after a save): the typed number is no longer new. */
  const markSaved = (values: OrderForm) => {
    setForm(values);
    setTypedNumber(false);
  };

  return { form, setForm, errors, set, detecting, onTrackingNumber, validate, markSaved };
}
