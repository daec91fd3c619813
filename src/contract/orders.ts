/** Orders (docs/behaviour.md#data, docs/behaviour.md#validation, docs/api.md). Field names are the spec's; the server keeps createdate/updatedate. */
import { z } from "zod";
import {
  CARRIERS,
  type Carrier,
  isAmazonImageUrl,
  ORDER_SORTS,
  ORDER_STATUSES,
  ORDERS_MAX_LIMIT,
  type OrderSort,
  type OrderStatus,
  PRODUCT_IMAGE_MESSAGE,
} from "./constants.ts";
import { isIsoDateText } from "./fields.ts";
import { CANT_REVIEW_REASONS, type CantReviewReason } from "./vine.ts";

export type Order = {
  orderid: number;
  amazonordernumber: string | null;
  productname: string;
  producturl: string | null;
  productimage: string | null;
  asin: string | null;
  shiptoaddress: string | null;
  /** Text such as "24.99", in `currency`. */
  estimatedretailvalue: string | null;
  /** ISO 4217 code of estimatedretailvalue ("USD", "EUR", "JPY"). */
  currency: string;
  /** YYYY-MM-DD */
  expecteddeliverydate: string | null;
  expecteddeliverydatetext: string | null;
  /** True when expecteddeliverydate was only guessed from the text ("Estimated" badge). */
  expecteddeliveryestimated: boolean;
  dateordered: string | null;
  datedelivered: string | null;
  /**
   * YYYY-MM-DD the Itemized Report says it shipped; null otherwise. A Shipped order with this date
   * and no tracking number is "shipped, not tracked": nothing will mark it delivered by itself.
   */
  dateshipped: string | null;
  status: OrderStatus;
  rating: number | null;
  reviewsubject: string | null;
  reviewtext: string | null;
  reviewimages: string[];
  reviewreference: string | null;
  datereviewsubmitted: string | null;
  datereviewapproved: string | null;
  datereviewrejected: string | null;
  trackingnumber: string | null;
  carrier: Carrier | null;
  deliverydetails: string | null;
  lastTrackingUpdate: string | null;
  /** Why Amazon will not get a review (Vine standing); null when none. */
  cantreviewreason: CantReviewReason | null;
  cantreviewnote: string | null;
  /** Vine support removed it from the review list: it leaves the review rate. */
  reviewexempt: boolean;
  updatedate: string;
  createdate: string;
};

/**
 * GET /api/orders query. `status` is a stage title or "all"; without `sort`, the Received,
 * Shipped and review filters use their own ordering (docs/behaviour.md#constants-and-limits), otherwise the chosen sort.
 * The total matching count comes back in the X-Total-Count header.
 */
export type OrderListQuery = {
  status?: OrderStatus | "all";
  q?: string;
  sort?: OrderSort;
  limit?: number;
  offset?: number;
};

const optText = (label: string, max: number) =>
  z
    .union([z.string(), z.null()], { error: `${label} must be text` })
    .optional()
    .transform((v) => (v == null ? v : v.trim() === "" ? null : v.trim()))
    .refine((v) => v == null || v.length <= max, `${label} must be at most ${max} characters`);

const isoDate = (label: string) =>
  optText(label, 40).refine(
    (v) => v == null || isIsoDateText(v),
    `${label} must be a date such as 2026-11-21`,
  );

/** ISO 4217 codes (the runtime's list, less the test and no-currency codes). */
const ISO_CURRENCIES = new Set(
  Intl.supportedValuesOf("currency").filter((c) => c !== "XXX" && c !== "XTS"),
);
export const CURRENCY_ERROR = "Currency must be an ISO 4217 code such as USD, EUR, GBP or JPY";
export const isCurrencyCode = (v: string): boolean => /^[A-Z]{3}$/.test(v) && ISO_CURRENCIES.has(v);

const RATING_ERROR = "Rating must be a whole number from 1 to 5, or empty";

/** Every editable field; POST needs productname and asin, PUT takes any subset. */
export const orderFields = {
  amazonordernumber: optText("Order number", 64),
  productname: z
    .string({
      error: (i) =>
        i.input === undefined ? "Product name is required" : "Product name must be text",
    })
    .trim()
    .min(1, "Product name is required")
    .max(1000, "Product name must be at most 1000 characters"),
  producturl: optText("Product URL", 2000).refine((v) => {
    if (v == null) return true;
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "Must be a valid URL"),
  productimage: optText("Product image", 2000).refine(
    (v) => v == null || isAmazonImageUrl(v),
    PRODUCT_IMAGE_MESSAGE,
  ),
  asin: z
    .string({ error: (i) => (i.input === undefined ? "ASIN is required" : "ASIN must be text") })
    .trim()
    .min(1, "ASIN is required")
    .max(20, "ASIN must be at most 20 characters"),
  shiptoaddress: optText("Ship-to address", 1000),
  estimatedretailvalue: optText("Estimated value", 32).refine(
    (v) => v == null || /^\$?\s*\d{1,3}(,?\d{3})*(\.\d{1,2})?$|^\$?\s*\d+(\.\d{1,2})?$/.test(v),
    "Estimated value must be an amount such as 24.99",
  ),
  expecteddeliverydate: isoDate("Expected delivery date"),
  expecteddeliverydatetext: optText("Expected delivery text", 200),
  dateordered: isoDate("Date ordered"),
  datedelivered: isoDate("Date delivered"),
  status: z.enum(ORDER_STATUSES, {
    error: `Status must be one of: ${ORDER_STATUSES.join(", ")}`,
  }),
  rating: z
    .union([z.number().int(RATING_ERROR).min(1, RATING_ERROR).max(5, RATING_ERROR), z.null()], {
      error: RATING_ERROR,
    })
    .optional(),
  reviewsubject: optText("Review subject", 500),
  reviewtext: optText("Review text", 20000),
  reviewreference: optText("Review reference", 500),
  datereviewsubmitted: isoDate("Review submitted date"),
  datereviewapproved: isoDate("Review approved date"),
  datereviewrejected: isoDate("Review rejected date"),
  trackingnumber: optText("Tracking number", 64),
  carrier: z
    .union([z.enum(CARRIERS), z.literal(""), z.null()], {
      error: `Carrier must be one of: ${CARRIERS.join(", ")}, or empty`,
    })
    .optional()
    .transform((v) => (v === "" ? null : v)),
  deliverydetails: optText("Delivery details", 2000),
  cantreviewreason: z
    .union([z.enum(CANT_REVIEW_REASONS), z.literal(""), z.null()], {
      error: `Can't-review reason must be one of: ${CANT_REVIEW_REASONS.join(", ")}, or empty`,
    })
    .optional()
    .transform((v) => (v === "" ? null : v)),
  cantreviewnote: optText("Can't-review note", 1000),
  reviewexempt: z.boolean({ error: "reviewexempt must be true or false" }).optional(),
  /** Absent on POST: the user's Vine marketplace's currency. */
  currency: z
    .string({ error: CURRENCY_ERROR })
    .trim()
    .refine(isCurrencyCode, CURRENCY_ERROR)
    .optional(),
};

export const createOrderBody = z.object({
  ...orderFields,
  status: orderFields.status.optional(),
});
export type CreateOrderBody = z.infer<typeof createOrderBody>;

/** PUT /api/orders/{id}: the edit form's fields, or only { status } from the list. */
export const updateOrderBody = z
  .object(orderFields)
  .partial()
  .refine((o) => Object.keys(o).length > 0, "Nothing to update: send at least one field");
export type UpdateOrderBody = z.infer<typeof updateOrderBody>;

export const trackingBody = z.object({
  trackingnumber: orderFields.trackingnumber,
  carrier: orderFields.carrier,
});
export type TrackingBody = z.infer<typeof trackingBody>;

/** PUT /api/orders/{id}/tracking answer. */
export type TrackingUpdateResponse = {
  order: Order;
  trackingInfo: { delivered: boolean; expectedDelivery: string | null } | null;
  warning?: string;
};

/**
 * POST /api/orders/{id}/delivered and POST /api/orders/untracked/delivered ("Mark delivered"):
 * the day it arrived; absent, each order's usual day (shipped date plus its
 * marketplace's usual days, never after today).
 */
export const markDeliveredBody = z.object({
  datedelivered: isoDate("Date delivered").refine(
    (v) => v == null || /^\d{4}-\d{2}-\d{2}$/.test(v),
    "Date delivered must be a date such as 2026-11-21",
  ),
});
export type MarkDeliveredBody = z.infer<typeof markDeliveredBody>;

/** One "shipped, not tracked" order as GET /api/orders/untracked lists it. */
export type UntrackedShipment = {
  orderid: number;
  productname: string;
  amazonordernumber: string | null;
  dateshipped: string;
  /** The order's marketplace (orderMarketplace) and its usual days from shipped to delivered. */
  marketplace: string;
  usualdays: number;
  /** The day "Mark delivered" uses when none is given. */
  suggesteddelivered: string;
};
export type UntrackedShipmentsResponse = { orders: UntrackedShipment[] };
export type MarkDeliveredAllResponse = { updated: number; message: string };

export const detectCarrierBody = z.object({
  trackingNumber: z
    .string({
      error: (i) =>
        i.input === undefined ? "trackingNumber is required" : "trackingNumber must be text",
    })
    .trim()
    .min(1, "trackingNumber is required")
    .max(64, "trackingNumber must be at most 64 characters"),
});
/** carrier is null when the number matches no carrier with certainty. */
export type DetectCarrierResponse = { carrier: Carrier | null };

/** Search text longer than this is refused (400). */
export const ORDER_SEARCH_MAX = 200;
export const ORDERS_DEFAULT_LIMIT = 100;

const queryEnum = <T extends string>(label: string, values: readonly T[], fallback: T) =>
  z
    .string()
    .optional()
    .transform((v, ctx): T => {
      const s = (v ?? "").trim();
      if (s === "") return fallback;
      const hit = values.find((x) => x.toLowerCase() === s.toLowerCase());
      if (hit === undefined) {
        ctx.addIssue({ code: "custom", message: `${label} must be one of: ${values.join(", ")}` });
        return z.NEVER;
      }
      return hit;
    });

const queryInt = (message: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").trim();
      if (s === "") return fallback;
      const n = Number(s);
      if (!/^\d{1,12}$/.test(s) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });

/**
 * GET /api/orders query string (see OrderListQuery). Stage titles and sorts match any case;
 * an absent or empty value takes the default. Every failure is a 400 naming the valid values.
 */
export const orderListQuery = z.object({
  status: queryEnum("Status", ["all", ...ORDER_STATUSES] as const, "all"),
  q: z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim())
    .refine(
      (v) => v.length <= ORDER_SEARCH_MAX,
      `Search text must be at most ${ORDER_SEARCH_MAX} characters`,
    ),
  sort: z
    .string()
    .optional()
    .transform((v, ctx): OrderSort | undefined => {
      const s = (v ?? "").trim();
      if (s === "") return undefined;
      const hit = ORDER_SORTS.find((x) => x === s.toLowerCase());
      if (hit === undefined) {
        ctx.addIssue({
          code: "custom",
          message: `Sort must be one of: ${ORDER_SORTS.join(", ")}`,
        });
        return z.NEVER;
      }
      return hit;
    }),
  limit: queryInt(
    `limit must be a whole number from 1 to ${ORDERS_MAX_LIMIT}`,
    1,
    ORDERS_MAX_LIMIT,
    ORDERS_DEFAULT_LIMIT,
  ),
  offset: queryInt("offset must be a whole number, 0 or more", 0, 1_000_000_000, 0),
});
export type ParsedOrderListQuery = z.output<typeof orderListQuery>;
