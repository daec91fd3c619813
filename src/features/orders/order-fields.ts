/**
 * What the orders service stores from a request, decided here alone (pure): amounts ("$1,234.5" →
 * "1234.50" and cents), instants and calendar days with their 400 messages, the date each status
 * stamps, and the tracking rule (a number makes an Ordered order Shipped, clearing it goes back).
 */
import type { Carrier, OrderStatus } from "../../contract/index.ts";
import type { OrderRow } from "../../db/schema.ts";
import { detectCarrier } from "../../tracking/carrier-detect.ts";
import { isoDayInZone } from "../../util/calendar-day.ts";
import { badRequest } from "../../util/errors.ts";
import { amountText, currencyDigits } from "../../util/money.ts";

/** Largest accepted value: a billion dollars, well inside exact integer cents. */
const MAX_VALUE_DOLLARS = 1_000_000_000;

/**
 * "$1,234.5" → { text: "1234.50", cents: 123450 }; the contract already checked the shape. A
 * currency without decimals (yen) is stored as a whole number ("4990"); a fraction in it is a 400.
 */
export function parseMoney(v: string, currency = "USD"): { text: string; cents: number } {
  const s = v.replace(/[$,\s]/g, "");
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw badRequest("estimated_value_amount");
  const dollars = Number(m[1]);
  if (dollars >= MAX_VALUE_DOLLARS) {
    throw badRequest("estimated_value_too_large");
  }
  const cents = dollars * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  if (currencyDigits(currency) === 0 && cents % 100 !== 0) {
    throw badRequest("amount_no_decimals", { currency, whole: dollars });
  }
  return { text: amountText(cents, currency), cents };
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const dayExists = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};

/** The stored dates a 400 can name (their labels: `error.field.<name>` in locales/). */
type DateField =
  | "dateordered"
  | "datedelivered"
  | "datereviewsubmitted"
  | "datereviewapproved"
  | "datereviewrejected"
  | "expecteddeliverydate";

const badDate = (field: DateField) => badRequest("field_date", { field });

/**
 * A stored date: a bare "YYYY-MM-DD" stays a calendar day; anything with a time becomes an ISO
 * instant in UTC ("2026-11-21T14:05:00.000Z"), so that SQL can compare them as text.
 */
export function normaliseInstant(v: string | null, field: DateField): string | null {
  if (v === null) return null;
  const d = DATE_ONLY.exec(v);
  if (d) {
    if (!dayExists(Number(d[1]), Number(d[2]), Number(d[3]))) throw badDate(field);
    return v;
  }
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw badDate(field);
  const year = new Date(t).getUTCFullYear();
  if (year < 1900 || year > 2999) throw badDate(field);
  return new Date(t).toISOString();
}

/** A real instant as ISO, else null (a mail's Date header can be anything). */
export const validInstant = (d: Date | null | undefined): string | null =>
  d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;

/** Expected delivery is a calendar day: a timestamp becomes its day in the user's zone. */
export function normaliseDay(v: string | null, zone: string): string | null {
  if (v === null) return null;
  const head = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(v);
  if (head) {
    if (!dayExists(Number(head[1]), Number(head[2]), Number(head[3]))) {
      throw badDate("expecteddeliverydate");
    }
    if (v.length === 10) return v;
  }
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw badDate("expecteddeliverydate");
  return isoDayInZone(new Date(t), zone);
}

/** A sent delivery day: a real day, not after today; null when none was sent. */
export function checkDeliveredDay(day: string | null | undefined, today: string): string | null {
  if (!day) return null;
  const d = DATE_ONLY.exec(day);
  if (!d || !dayExists(Number(d[1]), Number(d[2]), Number(d[3]))) throw badDate("datedelivered");
  if (day > today) throw badRequest("delivered_after_today");
  return day;
}

/** The date each status stamps when an order moves to it. */
const STAMPS = {
  Received: "dateDelivered",
  "Review Submitted": "dateReviewSubmitted",
  "Review Approved": "dateReviewApproved",
  "Review Rejected": "dateReviewRejected",
} as const satisfies Partial<Record<OrderStatus, keyof OrderRow>>;

const STAMP_BODY_FIELD = {
  dateDelivered: "datedelivered",
  dateReviewSubmitted: "datereviewsubmitted",
  dateReviewApproved: "datereviewapproved",
  dateReviewRejected: "datereviewrejected",
} as const;

/** Stamps the date of the status an order moves to, when empty and not sent in the request. */
export function stamp(
  status: OrderStatus,
  current: Partial<OrderRow>,
  body: Partial<Record<(typeof STAMP_BODY_FIELD)[keyof typeof STAMP_BODY_FIELD], unknown>>,
  nowIso: string,
): Partial<OrderRow> {
  if (!(status in STAMPS)) return {};
  const col = STAMPS[status as keyof typeof STAMPS];
  if (body[STAMP_BODY_FIELD[col]] !== undefined) return {};
  if (current[col]) return {};
  return { [col]: nowIso };
}

type TrackingState = {
  status: string;
  trackingNumber: string | null;
  carrier: string | null;
};

export function trackingChange(
  cur: TrackingState,
  number: string | null,
  carrier: Carrier | null | undefined,
  statusExplicit: boolean,
): { trackingNumber: string | null; carrier: Carrier | null; status?: OrderStatus } {
  if (!number) {
    return {
      trackingNumber: null,
      carrier: null,
      ...(!statusExplicit && cur.status === "Shipped" ? { status: "Ordered" as const } : {}),
    };
  }
  let c: Carrier | null;
  if (carrier) c = carrier;
  else if (carrier === undefined && number === cur.trackingNumber && cur.carrier) {
    c = cur.carrier as Carrier; // same number, carrier not sent: keep the one chosen before
  } else c = detectCarrier(number);
  return {
    trackingNumber: number,
    carrier: c,
    ...(!statusExplicit && cur.status === "Ordered" ? { status: "Shipped" as const } : {}),
  };
}
