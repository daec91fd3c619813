/**
 * The order form's client rules (docs/behaviour.md#validation), a message per field, and the Edit
 * Order tab that holds each field. Pure.
 */
import {
  isAmazonImageUrl,
  PRODUCT_IMAGE_MESSAGE,
  REVIEW_SUBJECT_MAX,
} from "../../src/contract/constants.ts";
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

/** The client rules of docs/behaviour.md#validation (and the server's amount rule), message per field. */
export function validateOrderForm(form: OrderForm): FormErrors {
  const errors: FormErrors = {};
  if (!form.productname.trim()) errors.productname = "Product name is required";
  const url = form.producturl.trim();
  if (url && !isHttpUrl(url)) errors.producturl = "Must be a valid URL";
  const image = form.productimage.trim();
  if (image && !isHttpUrl(image)) errors.productimage = "Must be a valid URL";
  else if (image && !isAmazonImageUrl(image)) errors.productimage = PRODUCT_IMAGE_MESSAGE;
  if (!form.asin.trim()) errors.asin = "ASIN is required";
  if (!isOrderStatus(form.status)) errors.status = "Choose one of the seven statuses";
  const r = form.rating;
  if (r !== null && !(Number.isInteger(r) && r >= 1 && r <= 5)) {
    errors.rating = "Rating must be 1 to 5 stars";
  }
  if (form.carrier !== "" && !isCarrier(form.carrier)) errors.carrier = "Choose a carrier";
  const amount = parseAmount(form.estimatedretailvalue, form.currency || "USD");
  if (!amount.ok) errors.estimatedretailvalue = amount.error;
  const delivered = form.datedelivered.trim();
  if (delivered && form.dateordered.trim() && delivered < form.dateordered.trim()) {
    errors.datedelivered = "Date delivered cannot be before the date ordered";
  }
  if (form.reviewsubject.length > REVIEW_SUBJECT_MAX) {
    errors.reviewsubject = `Review subject must be at most ${REVIEW_SUBJECT_MAX} characters`;
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
