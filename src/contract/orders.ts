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
} from "./constants.ts";
import { type FieldName, says } from "./errors.ts";
import { isIsoDateText } from "./fields.ts";
import type { TextValue } from "./text.ts";
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

const optText = (field: FieldName, max: number) =>
  z
    .union([z.string(), z.null()], { error: says("field_not_text", { field }) })
    .optional()
    .transform((v) => (v == null ? v : v.trim() === "" ? null : v.trim()))
    .refine((v) => v == null || v.length <= max, says("field_too_long", { field, max }));

const isoDate = (field: FieldName) =>
  optText(field, 40).refine((v) => v == null || isIsoDateText(v), says("field_date", { field }));

/** ISO 4217 codes (the runtime's list, less the test and no-currency codes). */
const ISO_CURRENCIES = new Set(
  Intl.supportedValuesOf("currency").filter((c) => c !== "XXX" && c !== "XTS"),
);
const CURRENCY_ERROR = says("currency_invalid");
export const isCurrencyCode = (v: string): boolean => /^[A-Z]{3}$/.test(v) && ISO_CURRENCIES.has(v);

const RATING_ERROR = says("rating_invalid");

/** Every editable field; POST needs productname and asin, PUT takes any subset. */
export const orderFields = {
  amazonordernumber: optText("amazonordernumber", 64),
  productname: z
    .string({
      error: (i) =>
        i.input === undefined
          ? says("field_required", { field: "productname" })
          : says("field_not_text", { field: "productname" }),
    })
    .trim()
    .min(1, says("field_required", { field: "productname" }))
    .max(1000, says("field_too_long", { field: "productname", max: 1000 })),
  producturl: optText("producturl", 2000).refine((v) => {
    if (v == null) return true;
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, says("url_invalid")),
  productimage: optText("productimage", 2000).refine(
    (v) => v == null || isAmazonImageUrl(v),
    says("product_image_host"),
  ),
  asin: z
    .string({
      error: (i) =>
        i.input === undefined
          ? says("field_required", { field: "asin" })
          : says("field_not_text", { field: "asin" }),
    })
    .trim()
    .min(1, says("field_required", { field: "asin" }))
    .max(20, says("field_too_long", { field: "asin", max: 20 })),
  shiptoaddress: optText("shiptoaddress", 1000),
  estimatedretailvalue: optText("estimatedretailvalue", 32).refine(
    (v) => v == null || /^\$?\s*\d{1,3}(,?\d{3})*(\.\d{1,2})?$|^\$?\s*\d+(\.\d{1,2})?$/.test(v),
    says("estimated_value_amount"),
  ),
  expecteddeliverydate: isoDate("expecteddeliverydate"),
  expecteddeliverydatetext: optText("expecteddeliverydatetext", 200),
  dateordered: isoDate("dateordered"),
  datedelivered: isoDate("datedelivered"),
  status: z.enum(ORDER_STATUSES, {
    error: says("field_one_of", { field: "status", values: ORDER_STATUSES.join(", ") }),
  }),
  rating: z
    .union([z.number().int(RATING_ERROR).min(1, RATING_ERROR).max(5, RATING_ERROR), z.null()], {
      error: RATING_ERROR,
    })
    .optional(),
  reviewsubject: optText("reviewsubject", 500),
  reviewtext: optText("reviewtext", 20000),
  reviewreference: optText("reviewreference", 500),
  datereviewsubmitted: isoDate("datereviewsubmitted"),
  datereviewapproved: isoDate("datereviewapproved"),
  datereviewrejected: isoDate("datereviewrejected"),
  trackingnumber: optText("trackingnumber", 64),
  carrier: z
    .union([z.enum(CARRIERS), z.literal(""), z.null()], {
      error: says("field_one_of_or_empty", { field: "carrier", values: CARRIERS.join(", ") }),
    })
    .optional()
    .transform((v) => (v === "" ? null : v)),
  deliverydetails: optText("deliverydetails", 2000),
  cantreviewreason: z
    .union([z.enum(CANT_REVIEW_REASONS), z.literal(""), z.null()], {
      error: says("field_one_of_or_empty", {
        field: "cantreviewreason",
        values: CANT_REVIEW_REASONS.join(", "),
      }),
    })
    .optional()
    .transform((v) => (v === "" ? null : v)),
  cantreviewnote: optText("cantreviewnote", 1000),
  reviewexempt: z.boolean({ error: says("name_boolean", { name: "reviewexempt" }) }).optional(),
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
  .refine((o) => Object.keys(o).length > 0, says("nothing_to_update_field"));
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
  /** Why the information is incomplete (English), and its catalog id and values (src/contract/text.ts). */
  warning?: string;
  warningCode?: string;
  warningValues?: Record<string, TextValue>;
};

/**
 * POST /api/orders/{id}/delivered and POST /api/orders/untracked/delivered ("Mark delivered"):
 * the day it arrived; absent, each order's usual day (shipped date plus its
 * marketplace's usual days, never after today).
 */
export const markDeliveredBody = z.object({
  datedelivered: isoDate("datedelivered").refine(
    (v) => v == null || /^\d{4}-\d{2}-\d{2}$/.test(v),
    says("field_date", { field: "datedelivered" }),
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
        i.input === undefined
          ? says("name_required", { name: "trackingNumber" })
          : says("name_not_text", { name: "trackingNumber" }),
    })
    .trim()
    .min(1, says("name_required", { name: "trackingNumber" }))
    .max(64, says("name_too_long", { name: "trackingNumber", max: 64 })),
});
/** carrier is null when the number matches no carrier with certainty. */
export type DetectCarrierResponse = { carrier: Carrier | null };

/** Search text longer than this is refused (400). */
export const ORDER_SEARCH_MAX = 200;
export const ORDERS_DEFAULT_LIMIT = 100;

const queryEnum = <T extends string>(field: FieldName, values: readonly T[], fallback: T) =>
  z
    .string()
    .optional()
    .transform((v, ctx): T => {
      const s = (v ?? "").trim();
      if (s === "") return fallback;
      const hit = values.find((x) => x.toLowerCase() === s.toLowerCase());
      if (hit === undefined) {
        ctx.addIssue({
          code: "custom",
          message: says("field_one_of", { field, values: values.join(", ") }),
        });
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
  status: queryEnum("status", ["all", ...ORDER_STATUSES] as const, "all"),
  q: z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim())
    .refine(
      (v) => v.length <= ORDER_SEARCH_MAX,
      says("search_too_long", { max: ORDER_SEARCH_MAX }),
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
          message: says("field_one_of", { field: "sort", values: ORDER_SORTS.join(", ") }),
        });
        return z.NEVER;
      }
      return hit;
    }),
  limit: queryInt(
    says("whole_number_range", { name: "limit", min: 1, max: ORDERS_MAX_LIMIT }),
    1,
    ORDERS_MAX_LIMIT,
    ORDERS_DEFAULT_LIMIT,
  ),
  offset: queryInt(says("whole_number_min0", { name: "offset" }), 0, 1_000_000_000, 0),
});
export type ParsedOrderListQuery = z.output<typeof orderListQuery>;
