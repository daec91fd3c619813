/**
 * The order form's client rules (docs/behaviour.md#validation), a message per field, and the Edit
 * Order tab that holds each field. Pure.
 */
import { isAmazonImageUrl, REVIEW_SUBJECT_MAX } from "../../src/contract/constants.ts";
import { translate } from "../i18n/index.ts";
import { parseAmount } from "./amount.ts";
import type { FormField, OrderForm } from "./order-form.ts";
import { isCarrier, isOrderStatus } from "./order-status.ts";

export type FormErrors = Partial<Record<FormField, string>>;

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * The client rules of docs/behaviour.md#validation (and the server's amount rule), message per
 * field, in the reader's language.
 */
export function validateOrderForm(form: OrderForm): FormErrors {
  const errors: FormErrors = {};
  if (!form.productname.trim()) errors.productname = translate("form.error.productNameRequired");
  const url = form.producturl.trim();
  if (url && !isHttpUrl(url)) errors.producturl = translate("form.error.url");
  const image = form.productimage.trim();
  if (image && !isHttpUrl(image)) errors.productimage = translate("form.error.url");
  else if (image && !isAmazonImageUrl(image))
    errors.productimage = translate("form.error.productImage");
  if (!form.asin.trim()) errors.asin = translate("form.error.asinRequired");
  if (!isOrderStatus(form.status)) errors.status = translate("form.error.status");
  const r = form.rating;
  if (r !== null && !(Number.isInteger(r) && r >= 1 && r <= 5)) {
    errors.rating = translate("form.error.rating");
  }
  if (form.carrier !== "" && !isCarrier(form.carrier))
    errors.carrier = translate("form.error.carrier");
  const amount = parseAmount(form.estimatedretailvalue, form.currency || "USD");
  if (!amount.ok) errors.estimatedretailvalue = amount.error;
  const delivered = form.datedelivered.trim();
  if (delivered && form.dateordered.trim() && delivered < form.dateordered.trim()) {
    errors.datedelivered = translate("form.error.deliveredBeforeOrdered");
  }
  if (form.reviewsubject.length > REVIEW_SUBJECT_MAX) {
    errors.reviewsubject = translate("form.error.subjectTooLong", { max: REVIEW_SUBJECT_MAX });
  }
  return errors;
}

/** Which edit tab holds a field (to open the first tab with an error). */
export type EditTab = "product" | "shipping" | "review";
export const FIELD_TABS: Record<FormField, EditTab> = {
  amazonordernumber: "product",
  productname: "product",
  producturl: "product",
  productimage: "product",
  asin: "product",
  estimatedretailvalue: "product",
  currency: "product",
  dateordered: "product",
  status: "product",
  shiptoaddress: "shipping",
  expecteddeliverydate: "shipping",
  datedelivered: "shipping",
  expecteddeliverydatetext: "shipping",
  trackingnumber: "shipping",
  carrier: "shipping",
  deliverydetails: "shipping",
  rating: "review",
  reviewsubject: "review",
  reviewtext: "review",
  reviewreference: "review",
  cantreviewreason: "review",
  cantreviewnote: "review",
  reviewexempt: "review",
};
