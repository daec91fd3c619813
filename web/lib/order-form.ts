/**
 * The Add and Edit Order forms' values (docs/behaviour.md#validation): the fields, an order as form
 * values, the request bodies (everything, or only what changed), the tracking-only change, and the
 * automatic changes when a tracking number is typed or its carrier detected. Pure.
 */
import type { Carrier, OrderStatus } from "../../src/contract/constants.ts";
import type { Order } from "../../src/contract/orders.ts";
import { amountForInput, parseAmount } from "./amount.ts";
import { dayKey } from "./order-days.ts";

export const TEXT_FIELDS = [
  "amazonordernumber",
  "productname",
  "producturl",
  "productimage",
  "asin",
  "shiptoaddress",
  "estimatedretailvalue",
  "expecteddeliverydate",
  "expecteddeliverydatetext",
  "dateordered",
  "datedelivered",
  "reviewsubject",
  "reviewtext",
  "reviewreference",
  "trackingnumber",
  "deliverydetails",
  "cantreviewreason",
  "cantreviewnote",
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export type OrderForm = Record<TextField, string> & {
  status: OrderStatus;
  carrier: Carrier | "";
  rating: number | null;
  reviewexempt: boolean;
  /** ISO 4217 code of the estimated value; "" on Add Order until the user's currency is known. */
  currency: string;
};
export type FormField = keyof OrderForm;

export const DATE_FIELDS: readonly TextField[] = [
  "expecteddeliverydate",
  "dateordered",
  "datedelivered",
];

export function emptyOrderForm(): OrderForm {
  const values = Object.fromEntries(TEXT_FIELDS.map((f) => [f, ""])) as Record<TextField, string>;
  return {
    ...values,
    status: "Ordered",
    carrier: "",
    rating: null,
    reviewexempt: false,
    currency: "",
  };
}

/** The form's values for an order; dates become the day (in the user's zone) a date input shows. */
export function orderToForm(order: Order, timeZone?: string): OrderForm {
  const form = emptyOrderForm();
  for (const f of TEXT_FIELDS) {
    const v = order[f];
    form[f] = typeof v === "string" ? v : "";
  }
  for (const f of DATE_FIELDS) form[f] = dayKey(order[f], timeZone) ?? "";
  form.estimatedretailvalue = amountForInput(form.estimatedretailvalue);
  form.status = order.status;
  form.carrier = order.carrier ?? "";
  form.rating = order.rating ?? null;
  form.reviewexempt = order.reviewexempt === true;
  form.currency = order.currency;
  return form;
}

export type OrderPayload = Partial<Record<TextField, string | null>> & {
  status?: OrderStatus;
  carrier?: Carrier | null;
  rating?: number | null;
  reviewexempt?: boolean;
  currency?: string;
};

function payloadValue(form: OrderForm, f: FormField): string | number | boolean | null {
  const v = form[f];
  if (f === "rating") return (v as number | null) ?? null;
  if (f === "reviewexempt") return v === true;
  // "129,99" in euros is sent as "129.99"; yen as a whole number (parseAmount).
  if (f === "estimatedretailvalue") {
    const amount = parseAmount(String(v ?? ""), form.currency || "USD");
    if (amount.ok) return amount.value === "" ? null : amount.value;
  }
  const t = String(v ?? "").trim();
  return t === "" ? null : t;
}

/** Everything in the form, trimmed, empty text as null (POST /api/orders). */
export function formToPayload(form: OrderForm): OrderPayload {
  const out: Record<string, unknown> = {};
  for (const f of [...TEXT_FIELDS, "status", "carrier", "rating", "reviewexempt"] as FormField[]) {
    out[f] = payloadValue(form, f);
  }
  out.status = form.status;
  // No currency chosen: the server's default (the user's Vine marketplace's).
  if (form.currency) out.currency = form.currency;
  return out as OrderPayload;
}

/** Only the fields that differ from what the order had (PUT /api/orders/{id}). */
export function changedFields(original: OrderForm, form: OrderForm): OrderPayload {
  const out: Record<string, unknown> = {};
  for (const f of [...TEXT_FIELDS, "status", "carrier", "rating", "reviewexempt"] as FormField[]) {
    const a = payloadValue(original, f);
    const b = payloadValue(form, f);
    if (a !== b) out[f] = b;
  }
  if (form.currency && form.currency !== original.currency) out.currency = form.currency;
  return out as OrderPayload;
}

/**
 * True when the tracking call (PUT /api/orders/{id}/tracking) should save these changes: only the
 * tracking number and/or carrier changed, plus at most the status change the form made by itself
 * (Ordered → Shipped for a new number, Shipped → Ordered when it was cleared), which the tracking
 * call makes on the server too.
 */
export function isTrackingOnlyChange(original: OrderForm, changes: OrderPayload): boolean {
  const keys = Object.keys(changes);
  if (!keys.some((k) => k === "trackingnumber" || k === "carrier")) return false;
  if (!keys.every((k) => k === "trackingnumber" || k === "carrier" || k === "status")) {
    return false;
  }
  if (!("status" in changes)) return true;
  const number = "trackingnumber" in changes ? changes.trackingnumber : original.trackingnumber;
  const hasNumber = Boolean((number ?? "").trim());
  return (
    (original.status === "Ordered" && changes.status === "Shipped" && hasNumber) ||
    (original.status === "Shipped" && changes.status === "Ordered" && !hasNumber)
  );
}

/**
 * The automatic changes of docs/behaviour.md#states-and-transitions when the tracking number is typed: clearing it empties the
 * carrier and takes Shipped back to Ordered. (Detection moves Ordered → Shipped: see
 * withDetectedCarrier.)
 */
export function withTrackingNumber(form: OrderForm, trackingnumber: string): OrderForm {
  if (trackingnumber.trim() === "") {
    return {
      ...form,
      trackingnumber,
      carrier: "",
      status: form.status === "Shipped" ? "Ordered" : form.status,
    };
  }
  return { ...form, trackingnumber };
}

/**
 * After detection for the current number: the carrier it found (a carrier it cannot tell leaves
 * the choice alone), then an Ordered order becomes Shipped, since it now has a tracking number.
 */
export function withDetectedCarrier(form: OrderForm, carrier: Carrier | null): OrderForm {
  return {
    ...form,
    carrier: carrier ?? form.carrier,
    status: form.status === "Ordered" ? "Shipped" : form.status,
  };
}

/** Statuses that mean the parcel arrived: the delivery date is filled with today when empty. */
const ARRIVED: readonly OrderStatus[] = [
  "Received",
  "Review Submitted",
  "Review Approved",
  "Review Rejected",
];

/**
 * A status chosen in the form: moving to Received (or later) with no delivery
 * date fills it with today (the user's day), which the user can then correct.
 */
export function withStatus(form: OrderForm, status: OrderStatus, today: string): OrderForm {
  const fill = ARRIVED.includes(status) && form.datedelivered.trim() === "";
  return { ...form, status, ...(fill ? { datedelivered: today } : {}) };
}
