/**
 * The order model every feature shares: what a stored order is in the API (`toOrder`), the row's
 * columns for statements prepared with bun:sqlite (`ROW_COLUMNS`, `toRows`, both from the drizzle
 * schema), the status sets and the one not-found message. Orders, tracking, the dashboard and the mail pipeline import it; it imports
 * no service.
 */
import { getTableColumns } from "drizzle-orm";
import type { Carrier, Order, OrderStatus } from "../../contract/index.ts";
import {
  DEFAULT_CURRENCY,
  MARKETPLACE_CURRENCY,
  type MarketplaceCode,
} from "../../contract/marketplaces.ts";
import type { CantReviewReason } from "../../contract/vine.ts";
import { type OrderRow, orders } from "../../db/schema.ts";
import { amountText, currencyDigits } from "../../util/money.ts";

/** New orders' currency when none is given: the user's Vine marketplace's, else US dollars. */
export function currencyOfUser(u: { vineMarketplace: string | null } | undefined | null): string {
  const m = u?.vineMarketplace;
  return m && m in MARKETPLACE_CURRENCY
    ? MARKETPLACE_CURRENCY[m as MarketplaceCode]
    : DEFAULT_CURRENCY;
}

/** Statuses that mean the parcel arrived (Canceled is not one of them). */
export const DELIVERED_STATUSES: readonly OrderStatus[] = [
  "Received",
  "Review Submitted",
  "Review Approved",
  "Review Rejected",
];

/** The API shape of a stored order. */
export function toOrder(r: OrderRow): Order {
  let images: string[] = [];
  try {
    const parsed: unknown = JSON.parse(r.reviewImages);
    if (Array.isArray(parsed)) images = parsed.filter((x): x is string => typeof x === "string");
  } catch {
    images = [];
  }
  return {
    orderid: r.id,
    amazonordernumber: r.amazonOrderNumber,
    productname: r.productName,
    producturl: r.productUrl,
    productimage: r.productImage,
    asin: r.asin,
    shiptoaddress: r.shipToAddress,
    // Yen and other currencies without decimals show none, also when stored as "4990.00".
    estimatedretailvalue:
      r.valueCents !== null && currencyDigits(r.currency) === 0
        ? amountText(r.valueCents, r.currency)
        : r.estimatedRetailValue,
    currency: r.currency,
    expecteddeliverydate: r.expectedDeliveryDate,
    expecteddeliverydatetext: r.expectedDeliveryDateText,
    expecteddeliveryestimated: r.expectedDeliveryEstimated,
    dateordered: r.dateOrdered,
    datedelivered: r.dateDelivered,
    dateshipped: r.dateShipped,
    status: r.status as OrderStatus,
    rating: r.rating,
    reviewsubject: r.reviewSubject,
    reviewtext: r.reviewText,
    reviewimages: images,
    reviewreference: r.reviewReference,
    datereviewsubmitted: r.dateReviewSubmitted,
    datereviewapproved: r.dateReviewApproved,
    datereviewrejected: r.dateReviewRejected,
    trackingnumber: r.trackingNumber,
    carrier: (r.carrier as Carrier | null) ?? null,
    deliverydetails: r.deliveryDetails,
    lastTrackingUpdate: r.lastTrackingUpdate,
    cantreviewreason: (r.cantReviewReason as CantReviewReason | null) ?? null,
    cantreviewnote: r.cantReviewNote,
    reviewexempt: r.reviewExempt,
    updatedate: r.updatedAt,
    createdate: r.createdAt,
  };
}

const COLUMNS = getTableColumns(orders);

/**
 * OrderRow's columns as drizzle's select() names them, for statements prepared once with
 * bun:sqlite (orders.repo.ts, and the read-only look-ups of the mail pipeline and the Vine
 * report), with toRows. Built from the schema, so the table has one column mapping.
 */
export const ROW_COLUMNS = Object.entries(COLUMNS)
  .map(([key, column]) => `"${column.name}" AS "${key}"`)
  .join(", ");

/** The columns drizzle stores as 0/1 and reads as booleans. */
const BOOLEAN_KEYS = Object.entries(COLUMNS)
  .filter(([, column]) => column.dataType === "boolean")
  .map(([key]) => key);

/** A row as SQLite gives it: the boolean columns are still 0/1. */
export type RawOrderRow = Omit<OrderRow, "expectedDeliveryEstimated" | "reviewExempt"> & {
  expectedDeliveryEstimated: number | boolean;
  reviewExempt: number | boolean;
};

/** Turns raw rows into OrderRows in place (drizzle's boolean mapping: 1 is true). */
export function toRows(raw: RawOrderRow[]): OrderRow[] {
  for (const r of raw) {
    const row = r as Record<string, unknown>;
    for (const key of BOOLEAN_KEYS) row[key] = row[key] === 1;
  }
  return raw as OrderRow[];
}
