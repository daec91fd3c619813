/**
 * Pure order helpers for the dashboard, the orders list and the edit form (docs/screens.md, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation, docs/messages.md, docs/behaviour.md#constants-and-limits):
 * carrier tracking links, delivery-date colours, "Just Delivered", word counts, pagination, the
 * review status line, the list's address state, the edit form's values, rules and changes, and the
 * tracking toasts' wording. No React and no I/O here, so everything is unit tested.
 */
import {
  CARRIERS,
  type Carrier,
  isAmazonImageUrl,
  ORDER_SORTS,
  ORDER_STATUSES,
  type OrderSort,
  type OrderStatus,
  PRODUCT_IMAGE_MESSAGE,
} from "../../src/contract/constants.ts";
import type { Order, TrackingUpdateResponse } from "../../src/contract/orders.ts";
import { dayDiff, isoDayInZone } from "../../src/shared/calendar-day.ts";
import {
  type AgeThresholdKind,
  ageText,
  type DateInput,
  daysSince,
  formatDateOnly,
  toDate,
  type UrgencyLevel,
  urgencyLevel,
} from "./format.ts";
import { detectBrowserTimeZone, safeTimeZone } from "./timezone.ts";

const HOUR_MS = 3_600_000;

/* ------------------------------------------------------------------------------------------------
 * Constants of docs/behaviour.md#constants-and-limits
 * --------------------------------------------------------------------------------------------- */

export const CARRIER_DETECT_MIN_LENGTH = 8;
export const CARRIER_DETECT_DEBOUNCE_MS = 500;
export const BLUR_SAVE_DELAY_MS = 200;
export const SEARCH_DEBOUNCE_MS = 300;
export const TRACKING_WARNING_DELAY_MS = 1_000;
export const DEFAULT_TARGET_WORDS = 150;
export const WORD_BANDS = { good: 0.15, fair: 0.3 } as const;
export const REVIEW_SUBJECT_MAX = 500;
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const JUST_DELIVERED_MS = 24 * HOUR_MS;

export { CARRIER_LABELS } from "../../src/contract/constants.ts";

/** Subtitles of the dashboard's status cards (docs/screens.md). */
export const STATUS_SUBTITLES: Partial<Record<OrderStatus, string>> = {
  Ordered: "Not Shipped",
  Shipped: "In Transit",
  Received: "Ready for Review",
  "Review Submitted": "Waiting for Approval",
  "Review Rejected": "Rewrite Review",
  "Review Approved": "All Done!",
};

export const isOrderStatus = (v: unknown): v is OrderStatus =>
  typeof v === "string" && (ORDER_STATUSES as readonly string[]).includes(v);
export const isCarrier = (v: unknown): v is Carrier =>
  typeof v === "string" && (CARRIERS as readonly string[]).includes(v);
export const isOrderSort = (v: unknown): v is OrderSort =>
  typeof v === "string" && (ORDER_SORTS as readonly string[]).includes(v);

/* ------------------------------------------------------------------------------------------------
 * Days in the user's zone
 * --------------------------------------------------------------------------------------------- */

const DATE_ONLY_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The calendar day ("YYYY-MM-DD") of a value in the zone (the browser's when none or invalid). A
 * bare "YYYY-MM-DD" is already a day and is kept as it is (it names a day, not an instant). Null
 * when empty or invalid.
 */
export function dayKey(value: DateInput, timeZone?: string): string | null {
  if (typeof value === "string" && DATE_ONLY_RE.test(value.trim())) return value.trim();
  const date = toDate(value);
  if (!date) return null;
  return isoDayInZone(date, safeTimeZone(timeZone) ?? detectBrowserTimeZone());
}

/** Whole days from day a to day b (both "YYYY-MM-DD"). */
export { dayDiff };

/** "Nov 21, 2026" for a day or an instant (in the zone); "Never" when empty. */
export function displayDay(value: DateInput, timeZone?: string): string {
  if (typeof value === "string" && DATE_ONLY_RE.test(value.trim())) {
    return formatDateOnly(`${value.trim()}T12:00:00Z`, "UTC");
  }
  return formatDateOnly(value, timeZone);
}

/* ------------------------------------------------------------------------------------------------
 * Tracking links (docs/screens.md)
 * --------------------------------------------------------------------------------------------- */

/* trackingUrl lives in tracking-links.ts: only Edit Order (a lazy screen) needs the table. */

/** The retailer's page of a published review (docs/screens.md 'View on'). */
export function reviewUrl(reference: string | null | undefined): string | null {
  const r = (reference ?? "").trim();
  return r ? `https://www.amazon.com/review/${encodeURIComponent(r)}` : null;
}

/* ------------------------------------------------------------------------------------------------
 * Delivery date colours and Just Delivered (docs/screens.md, docs/behaviour.md#constants-and-limits)
 * --------------------------------------------------------------------------------------------- */

/** today green, tomorrow blue, future purple, estimated text only orange, none (also past days). */
export type DeliveryTone = "today" | "tomorrow" | "future" | "estimated" | "none";

export type DeliveryInfo = { tone: DeliveryTone; text: string | null };

/**
 * How an order's expected delivery is shown. A known day (parsed from the text or not) is coloured
 * by how far away it is in the user's zone; only text with no day gives the orange "estimated".
 */
export function deliveryInfo(
  order: Pick<Order, "expecteddeliverydate" | "expecteddeliverydatetext">,
  now: Date = new Date(),
  timeZone?: string,
): DeliveryInfo {
  const day = dayKey(order.expecteddeliverydate, timeZone);
  if (day) {
    const today = dayKey(now, timeZone)!;
    const diff = dayDiff(today, day);
    const tone: DeliveryTone =
      diff === 0 ? "today" : diff === 1 ? "tomorrow" : diff > 1 ? "future" : "none";
    const text =
      diff === 0
        ? "Today"
        : diff === 1
          ? "Tomorrow"
          : displayDay(order.expecteddeliverydate, timeZone);
    return { tone, text };
  }
  const text = (order.expecteddeliverydatetext ?? "").trim();
  if (text) return { tone: "estimated", text };
  return { tone: "none", text: null };
}

/** A Received order delivered less than 24 hours ago. */
export function isJustDelivered(
  order: Pick<Order, "status" | "datedelivered">,
  now: Date = new Date(),
): boolean {
  if (order.status !== "Received") return false;
  const d = toDate(order.datedelivered);
  if (!d) return false;
  const age = now.getTime() - d.getTime();
  return age >= 0 && age < JUST_DELIVERED_MS;
}

/** "Delivered today", "1 day since delivery", "16 days since delivery", with the Received urgency. */
export function deliveryAge(
  datedelivered: DateInput,
  now: Date = new Date(),
): { text: string; urgency: UrgencyLevel } | null {
  const days = daysSince(datedelivered, now);
  if (days === null) return null;
  const d = Math.max(0, days);
  const text =
    d === 0 ? "Delivered today" : d === 1 ? "1 day since delivery" : `${d} days since delivery`;
  return { text, urgency: urgencyLevel(d, "received") };
}

/* ------------------------------------------------------------------------------------------------
 * Review text (docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits)
 * --------------------------------------------------------------------------------------------- */

export function wordCount(text: string | null | undefined): number {
  const t = (text ?? "").trim();
  return t ? t.split(/\s+/).length : 0;
}

/** green within 15 % of the target, yellow within 30 %, red otherwise. */
export type WordBand = "good" | "fair" | "poor";

export function wordBand(count: number, target: number = DEFAULT_TARGET_WORDS): WordBand {
  if (!(target > 0)) return "good";
  const off = Math.abs(count - target) / target;
  if (off <= WORD_BANDS.good + 1e-9) return "good";
  if (off <= WORD_BANDS.fair + 1e-9) return "fair";
  return "poor";
}

/* ------------------------------------------------------------------------------------------------
 * Pagination (docs/screens.md)
 * --------------------------------------------------------------------------------------------- */

export type PageItem = number | "start-ellipsis" | "end-ellipsis";

/**
 * First and last page, the current page ±2, and an ellipsis for each gap (a gap of exactly one
 * page shows that page instead: an ellipsis would hide no more than the number itself).
 */
export function pageItems(current: number, totalPages: number): PageItem[] {
  if (totalPages < 1) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  const start = Math.max(1, page - 2);
  const end = Math.min(totalPages, page + 2);
  const items: PageItem[] = [];
  if (start > 1) items.push(1);
  if (start > 3) items.push("start-ellipsis");
  else if (start === 3) items.push(2);
  for (let i = start; i <= end; i++) items.push(i);
  if (end < totalPages - 2) items.push("end-ellipsis");
  else if (end === totalPages - 2) items.push(totalPages - 1);
  if (end < totalPages) items.push(totalPages);
  return items;
}

export function totalPages(total: number, size: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, size)));
}

/** "Showing X to Y of Z results" */
export function showingText(page: number, size: number, total: number): string {
  if (total <= 0) return "Showing 0 to 0 of 0 results";
  const from = Math.min((page - 1) * size + 1, total);
  const to = Math.min(page * size, total);
  return `Showing ${from} to ${to} of ${total} results`;
}

/* ------------------------------------------------------------------------------------------------
 * Review status line (docs/screens.md)
 * --------------------------------------------------------------------------------------------- */

export type ReviewStatusLine = {
  /** "Submitted", "Approved", "Rejected" or "Not Submitted". */
  label: string;
  /** "Nov 21, 2026 · 3 days ago", "Received Nov 18, 2026 · 3 days ago", "Status: Shipped" … */
  detail: string | null;
  urgency: UrgencyLevel;
};

function dated(
  value: DateInput,
  now: Date,
  timeZone: string | undefined,
  kind: AgeThresholdKind | null,
  prefix = "",
): { detail: string | null; urgency: UrgencyLevel } {
  if (!toDate(value)) return { detail: null, urgency: "normal" };
  const day = `${prefix}${displayDay(value, timeZone)}`;
  if (!kind) return { detail: day, urgency: "normal" };
  return {
    detail: `${day} · ${ageText(value, now)}`,
    urgency: urgencyLevel(daysSince(value, now), kind),
  };
}

export function reviewStatusLine(
  order: Pick<
    Order,
    "status" | "datereviewsubmitted" | "datereviewapproved" | "datereviewrejected" | "datedelivered"
  >,
  now: Date = new Date(),
  timeZone?: string,
): ReviewStatusLine {
  switch (order.status) {
    case "Review Submitted":
      return {
        label: "Submitted",
        ...dated(order.datereviewsubmitted, now, timeZone, "reviewSubmitted"),
      };
    case "Review Approved":
      return { label: "Approved", ...dated(order.datereviewapproved, now, timeZone, null) };
    case "Review Rejected":
      return {
        label: "Rejected",
        ...dated(order.datereviewrejected, now, timeZone, "reviewRejected"),
      };
    case "Received":
      return {
        label: "Not Submitted",
        ...dated(order.datedelivered, now, timeZone, "received", "Received "),
      };
    default:
      return { label: "Not Submitted", detail: `Status: ${order.status}`, urgency: "normal" };
  }
}

/** The review date shown on a card under the review filters. */
export function reviewDateText(order: Order, timeZone?: string): string | null {
  const pick: Partial<Record<OrderStatus, [string, string | null]>> = {
    "Review Submitted": ["Submitted", order.datereviewsubmitted],
    "Review Approved": ["Approved", order.datereviewapproved],
    "Review Rejected": ["Rejected", order.datereviewrejected],
  };
  const entry = pick[order.status];
  if (!entry || !toDate(entry[1])) return null;
  return `${entry[0]} ${displayDay(entry[1], timeZone)}`;
}

/* ------------------------------------------------------------------------------------------------
 * Tracking toasts (docs/messages.md)
 * --------------------------------------------------------------------------------------------- */

export const TRACKING_SAVED_TITLE = "Tracking updated successfully";
export const TRACKING_WARNING_TITLE = "Tracking information incomplete";
export const TRACKING_ERROR_TITLE = "Error updating tracking";

export function trackingSuccessDescription(res: TrackingUpdateResponse, timeZone?: string): string {
  if (res.trackingInfo?.delivered) {
    return "Order marked as delivered based on tracking information.";
  }
  if (res.order.status === "Shipped") {
    const expected = res.trackingInfo?.expectedDelivery;
    if (expected && toDate(expected)) {
      return `Order marked as shipped. Expected delivery: ${displayDay(expected, timeZone)}`;
    }
    return "Order marked as shipped with tracking information updated.";
  }
  return "Tracking information has been saved.";
}

export function trackingErrorDescription(message: string | null, details?: unknown): string {
  const m = (message ?? "").toLowerCase();
  if (m.includes("not found")) return "Order not found. Please refresh the page.";
  if (m.includes("not authorized")) return "You don't have permission to update this order.";
  if (details !== undefined && details !== null && details !== "") {
    const text = typeof details === "string" ? details : JSON.stringify(details);
    return `Update failed: ${text}`;
  }
  return "Failed to save tracking information. Please try again.";
}

/* ------------------------------------------------------------------------------------------------
 * The orders list's address (?status=&q=&sort=&page=&size=)
 * --------------------------------------------------------------------------------------------- */

export type StatusFilter = OrderStatus | "all";

export type ListView = {
  status: StatusFilter;
  q: string;
  /** null: not chosen by the user (the filter's own ordering, else Newest First). */
  sort: OrderSort | null;
  page: number;
  size: number;
};

export const DEFAULT_VIEW: ListView = {
  status: "all",
  q: "",
  sort: null,
  page: 1,
  size: DEFAULT_PAGE_SIZE,
};

/** The filters whose orders come in their own order unless a sort is chosen (docs/behaviour.md#constants-and-limits). */
export const FILTER_ORDER_LABELS: Partial<Record<OrderStatus, string>> = {
  Shipped: "Arriving Soonest",
  Received: "Oldest Delivery First",
  "Review Submitted": "Oldest Submitted First",
  "Review Approved": "Newest Approved First",
  "Review Rejected": "Oldest Rejected First",
};

export function hasOwnOrdering(status: StatusFilter): boolean {
  return status !== "all" && FILTER_ORDER_LABELS[status] !== undefined;
}

export function parseListView(search: string): ListView {
  const p = new URLSearchParams(search);
  const status = p.get("status");
  const sort = p.get("sort");
  const page = Number.parseInt(p.get("page") ?? "", 10);
  const size = Number.parseInt(p.get("size") ?? "", 10);
  return {
    status: isOrderStatus(status) ? status : "all",
    q: p.get("q") ?? "",
    sort: isOrderSort(sort) ? sort : null,
    page: Number.isFinite(page) && page >= 1 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** "status=Shipped&q=lamp&page=2" (defaults other than the status are left out). */
export function listViewSearch(view: ListView): string {
  const p = new URLSearchParams();
  p.set("status", view.status);
  if (view.q.trim()) p.set("q", view.q.trim());
  if (view.sort) p.set("sort", view.sort);
  if (view.page > 1) p.set("page", String(view.page));
  if (view.size !== DEFAULT_PAGE_SIZE) p.set("size", String(view.size));
  return p.toString();
}

export function listViewPath(view: ListView): string {
  return `/orders?${listViewSearch(view)}`;
}

/** GET /api/orders for this view: the sort only when chosen, paging as limit/offset. */
export function ordersApiPath(view: ListView): string {
  const p = new URLSearchParams();
  p.set("status", view.status);
  if (view.q.trim()) p.set("q", view.q.trim());
  if (view.sort) p.set("sort", view.sort);
  p.set("limit", String(view.size));
  p.set("offset", String((view.page - 1) * view.size));
  return `/api/orders?${p.toString()}`;
}

/**
 * The page to return to after the edit screen: a path on this site only ("/…", not "//host"),
 * else the fallback.
 */
export function safeFrom(from: string | null | undefined, fallback = "/orders?status=all"): string {
  if (!from?.startsWith("/") || from.startsWith("//") || from.startsWith("/\\")) {
    return fallback;
  }
  return from;
}

/** "Dashboard" when `from` is the dashboard, "Vine" for the Vine page, else "Order List". */
export function fromLabel(from: string): "Dashboard" | "Order List" | "Vine" {
  const path = from.split("?")[0];
  if (path === "/vine") return "Vine";
  return path === "/" || path === "" ? "Dashboard" : "Order List";
}

export function editOrderPath(orderid: number, from: string, section?: "review"): string {
  const p = new URLSearchParams({ from });
  if (section) p.set("section", section);
  return `/orders/${orderid}/edit?${p.toString()}`;
}

/* ------------------------------------------------------------------------------------------------
 * The edit and add forms (docs/behaviour.md#validation)
 * --------------------------------------------------------------------------------------------- */

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

export const DATE_FIELDS: readonly TextField[] = ["expecteddeliverydate", "dateordered"];

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

export type FormErrors = Partial<Record<FormField, string>>;

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

const MONEY_RE = /^\$?\s*\d{1,3}(,?\d{3})*(\.\d{1,2})?$|^\$?\s*\d+(\.\d{1,2})?$/;

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
  const value = form.estimatedretailvalue.trim();
  if (value && !MONEY_RE.test(value)) {
    errors.estimatedretailvalue = "Estimated value must be an amount such as 24.99";
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

/** Detection is asked for only from 8 trimmed characters (docs/behaviour.md#validation). */
export function shouldDetectCarrier(trackingnumber: string): boolean {
  return trackingnumber.trim().length >= CARRIER_DETECT_MIN_LENGTH;
}
