/**
 * Orders: ownership, the lifecycle rules of docs/behaviour.md#states-and-transitions and the server-kept fields.
 *
 * - createdate/updatedate are the server's; value_cents follows estimatedretailvalue, which is
 *   stored normalised ("$1,234.5" → "1234.50").
 * - Moving to Received / Review Submitted / Review Approved / Review Rejected stamps the matching
 *   date with now when it is empty, unless the request sets that date itself.
 * - A new or changed expecteddeliverydatetext, without an explicitly changed expecteddeliverydate
 *   in the same request, sets the date to the text's meaning (estimated); an explicitly changed
 *   date is a real one (not estimated). Re-sending the stored values changes nothing.
 * - Tracking: a number on an Ordered order makes it Shipped; clearing the number clears the carrier
 *   and takes a Shipped order back to Ordered; a missing carrier is detected from the number. An
 *   explicit status in the same request wins over the automatic change.
 * - "Mark delivered": an Ordered or Shipped order becomes Received on a given day,
 *   or on its shipped day plus its marketplace's usual days (never after today); all "shipped, not
 *   tracked" orders at once in one transaction.
 * - Another user's order is "Order not found", exactly like a missing one.
 * - Every change is published on the event bus after it is written.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type {
  Carrier,
  CreateOrderBody,
  Order,
  OrderStatus,
  ParsedOrderListQuery,
  TrackingBody,
  TrackingUpdateResponse,
  UpdateOrderBody,
} from "../../contract/index.ts";
import {
  type MarkDeliveredAllResponse,
  orderMarketplace,
  type UntrackedShipment,
  USUAL_DELIVERY_DAYS,
  usualDeliveredDay,
} from "../../contract/index.ts";
import type { OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import { amountText, currencyDigits } from "../../shared/money.ts";
import { detectCarrier } from "../../tracking/carrier-detect.ts";
import type { TrackingService } from "../tracking/tracking.service.ts";
import type { UsersRepo } from "../users/users.repo.ts";
import type { ExportSection } from "../users/users.service.ts";
import { isoDayInZone, parseExpectedDelivery } from "./expected-delivery.ts";
import { currencyOfUser, ORDER_NOT_FOUND, toOrder } from "./order-model.ts";
import type { NewOrderRow, OrderListFilter, OrderPatch, OrdersRepo } from "./orders.repo.ts";

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

/* ------------------------------------------------------------------------------------------------
 * Value and date normalisation
 * --------------------------------------------------------------------------------------------- */

/** Largest accepted value: a billion dollars, well inside exact integer cents. */
const MAX_VALUE_DOLLARS = 1_000_000_000;

/**
 * "$1,234.5" → { text: "1234.50", cents: 123450 }; the contract already checked the shape. A
 * currency without decimals (yen) is stored as a whole number ("4990"); a fraction in it is a 400.
 */
export function parseMoney(v: string, currency = "USD"): { text: string; cents: number } {
  const s = v.replace(/[$,\s]/g, "");
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw badRequest("Estimated value must be an amount such as 24.99");
  const dollars = Number(m[1]);
  if (dollars >= MAX_VALUE_DOLLARS) {
    throw badRequest("Estimated value must be less than $1,000,000,000");
  }
  const cents = dollars * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  if (currencyDigits(currency) === 0 && cents % 100 !== 0) {
    throw badRequest(
      `Amounts in ${currency} have no decimals: write a whole number such as ${dollars}`,
    );
  }
  return { text: amountText(cents, currency), cents };
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const dayExists = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};

const LABELS = {
  dateordered: "Date ordered",
  datedelivered: "Date delivered",
  datereviewsubmitted: "Review submitted date",
  datereviewapproved: "Review approved date",
  datereviewrejected: "Review rejected date",
  expecteddeliverydate: "Expected delivery date",
} as const;

const badDate = (field: keyof typeof LABELS) =>
  badRequest(`${LABELS[field]} must be a date such as 2026-11-21`);

/**
 * A stored date: a bare "YYYY-MM-DD" stays a calendar day; anything with a time becomes an ISO
 * instant in UTC ("2026-11-21T14:05:00.000Z"), so that SQL can compare them as text.
 */
function normaliseInstant(v: string | null, field: keyof typeof LABELS): string | null {
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

/** Expected delivery is a calendar day: a timestamp becomes its day in the user's zone. */
/** A real instant as ISO, else null (a mail's Date header can be anything). */
const validInstant = (d: Date | null | undefined): string | null =>
  d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;

function normaliseDay(v: string | null, zone: string): string | null {
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

/* ------------------------------------------------------------------------------------------------
 * Tracking rule (shared by create, full edit and the tracking call)
 * --------------------------------------------------------------------------------------------- */

type TrackingState = {
  status: string;
  trackingNumber: string | null;
  carrier: string | null;
};

function trackingChange(
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

/* ------------------------------------------------------------------------------------------------
 * "Mark delivered"
 * --------------------------------------------------------------------------------------------- */

/** A sent delivery day: a real day, not after today; null when none was sent. */
function checkDeliveredDay(day: string | null | undefined, today: string): string | null {
  if (!day) return null;
  const d = DATE_ONLY.exec(day);
  if (!d || !dayExists(Number(d[1]), Number(d[2]), Number(d[3]))) throw badDate("datedelivered");
  if (day > today) throw badRequest("Date delivered cannot be after today");
  return day;
}

function defaultDeliveredDay(
  r: OrderRow,
  userMarketplace: string | null | undefined,
  today: string,
): string {
  if (!r.dateShipped) return today;
  return usualDeliveredDay(
    r.dateShipped,
    orderMarketplace(toMarketplaceInput(r), userMarketplace),
    today,
  );
}

const toMarketplaceInput = (r: OrderRow) => ({ producturl: r.productUrl, currency: r.currency });

function untrackedOf(
  r: OrderRow,
  userMarketplace: string | null | undefined,
  today: string,
): UntrackedShipment {
  const marketplace = orderMarketplace(toMarketplaceInput(r), userMarketplace);
  return {
    orderid: r.id,
    productname: r.productName,
    amazonordernumber: r.amazonOrderNumber,
    dateshipped: r.dateShipped ?? today,
    marketplace,
    usualdays: USUAL_DELIVERY_DAYS[marketplace],
    suggesteddelivered: usualDeliveredDay(r.dateShipped ?? today, marketplace, today),
  };
}

/* ------------------------------------------------------------------------------------------------
 * The service
 * --------------------------------------------------------------------------------------------- */

export type OrderListResult = { orders: Order[]; total: number };

const utf8 = new TextEncoder();

const listFilter = (q: ParsedOrderListQuery): OrderListFilter => ({
  status: q.status === "all" ? undefined : q.status,
  q: q.q,
  sort: q.sort,
  limit: q.limit,
  offset: q.offset,
});

/** Where a change came from when a mail made it: the mail's Date header. */
export type MailOrigin = { mailDate: Date | null };

/** When a delivery text was written: the mail's date when it has a valid one, else now. */
function writtenAt(origin: MailOrigin | undefined, now: Date): Date {
  const d = origin?.mailDate;
  return d && !Number.isNaN(d.getTime()) ? d : now;
}

export function createOrdersService(deps: {
  orders: OrdersRepo;
  users: UsersRepo;
  events: EventBus;
  mediaDir: string;
  now?: () => Date;
  /** Looks a Shipped order up with its carrier after its tracking was saved (features/tracking). */
  tracking: Pick<TrackingService, "afterTrackingSaved">;
  /**
   * An order moved to Review Approved or Review Rejected: the alert channels that chose
   * "review approved / rejected" hear of it (features/alerts). Not a bell notification: the user
   * made the move; the alert is for the webhooks and phones that keep a record of decisions.
   */
  onReviewDecided?: (userId: number, order: Order) => void;
}) {
  const clock = deps.now ?? (() => new Date());

  const zoneOf = (userId: number): string => deps.users.findById(userId)?.timezone || "UTC";

  function mustFind(userId: number, id: number): OrderRow {
    const row = deps.orders.findForUser(userId, id);
    if (!row) throw notFound(ORDER_NOT_FOUND);
    return row;
  }

  /** Stamps the date of the status an order moves to, when empty and not sent in the request. */
  function stamp(
    status: OrderStatus,
    current: Partial<OrderRow>,
    body: Partial<Record<(typeof STAMP_BODY_FIELD)[keyof typeof STAMP_BODY_FIELD], unknown>>,
    nowIso: string,
  ): Partial<OrderPatch> {
    if (!(status in STAMPS)) return {};
    const col = STAMPS[status as keyof typeof STAMPS];
    if (body[STAMP_BODY_FIELD[col]] !== undefined) return {};
    if (current[col]) return {};
    return { [col]: nowIso };
  }

  return {
    list(userId: number, q: ParsedOrderListQuery): OrderListResult {
      const { rows, total } = deps.orders.list(userId, listFilter(q));
      return { orders: rows.map(toOrder), total };
    },

    /**
     * The list as GET /api/orders answers it: the page's JSON as UTF-8, encoded once and kept
     * until the user's orders change (a page of 100 is ~60 KB).
     */
    listJson(
      userId: number,
      q: ParsedOrderListQuery,
    ): { json: Uint8Array<ArrayBuffer>; total: number } {
      const page = deps.orders.listRendered(userId, listFilter(q), (rows) =>
        utf8.encode(JSON.stringify(rows.map(toOrder))),
      );
      return { json: page.body, total: page.total };
    },

    get(userId: number, id: number): Order {
      return toOrder(mustFind(userId, id));
    },

    /**
     * `mailDate`: the Date of the mail that creates the order (the mail pipeline's creates); a
     * delivery text ("Arriving tomorrow") is read from that day, not from the day it is imported.
     */
    create(userId: number, body: CreateOrderBody, origin?: MailOrigin): Order {
      const zone = zoneOf(userId);
      const now = clock();
      const nowIso = now.toISOString();
      const currency = body.currency ?? currencyOfUser(deps.users.findById(userId));
      const money = body.estimatedretailvalue
        ? parseMoney(body.estimatedretailvalue, currency)
        : null;

      let expectedDate: string | null = null;
      let estimated = false;
      if (body.expecteddeliverydate) {
        expectedDate = normaliseDay(body.expecteddeliverydate, zone);
      } else if (body.expecteddeliverydatetext) {
        expectedDate = parseExpectedDelivery(
          body.expecteddeliverydatetext,
          writtenAt(origin, now),
          zone,
        );
        estimated = true;
      }

      const statusExplicit = body.status !== undefined;
      let status: OrderStatus = body.status ?? "Ordered";
      const tracking = trackingChange(
        { status, trackingNumber: null, carrier: null },
        body.trackingnumber ?? null,
        body.carrier ?? null,
        statusExplicit,
      );
      if (tracking.status) status = tracking.status;

      const row: NewOrderRow = {
        userId,
        amazonOrderNumber: body.amazonordernumber ?? null,
        productName: body.productname,
        productUrl: body.producturl ?? null,
        productImage: body.productimage ?? null,
        asin: body.asin,
        shipToAddress: body.shiptoaddress ?? null,
        estimatedRetailValue: money?.text ?? null,
        valueCents: money?.cents ?? null,
        currency,
        expectedDeliveryDate: expectedDate,
        expectedDeliveryDateText: body.expecteddeliverydatetext ?? null,
        expectedDeliveryEstimated: estimated,
        dateOrdered: normaliseInstant(body.dateordered ?? null, "dateordered"),
        dateDelivered: normaliseInstant(body.datedelivered ?? null, "datedelivered"),
        status,
        rating: body.rating ?? null,
        reviewSubject: body.reviewsubject ?? null,
        reviewText: body.reviewtext ?? null,
        reviewReference: body.reviewreference ?? null,
        dateReviewSubmitted: normaliseInstant(
          body.datereviewsubmitted ?? null,
          "datereviewsubmitted",
        ),
        dateReviewApproved: normaliseInstant(body.datereviewapproved ?? null, "datereviewapproved"),
        dateReviewRejected: normaliseInstant(body.datereviewrejected ?? null, "datereviewrejected"),
        trackingNumber: tracking.trackingNumber,
        carrier: tracking.carrier,
        deliveryDetails: body.deliverydetails ?? null,
        cantReviewReason: body.cantreviewreason ?? null,
        cantReviewNote: body.cantreviewnote ?? null,
        reviewExempt: body.reviewexempt ?? false,
        mailDate: validInstant(origin?.mailDate),
        createdAt: nowIso,
        updatedAt: nowIso,
      };
      Object.assign(row, stamp(status, row, body, nowIso));
      const saved = deps.orders.insert(row);
      deps.events.publish(userId, "order.created");
      return toOrder(saved);
    },

    /** `origin`: as for `create`, the mail that changes the order (its delivery text's day). */
    update(userId: number, id: number, body: UpdateOrderBody, origin?: MailOrigin): Order {
      const cur = mustFind(userId, id);
      const zone = zoneOf(userId);
      const now = clock();
      const nowIso = now.toISOString();
      const patch: OrderPatch = {};

      const simple = {
        amazonordernumber: "amazonOrderNumber",
        productname: "productName",
        producturl: "productUrl",
        productimage: "productImage",
        asin: "asin",
        shiptoaddress: "shipToAddress",
        rating: "rating",
        reviewsubject: "reviewSubject",
        reviewtext: "reviewText",
        reviewreference: "reviewReference",
        deliverydetails: "deliveryDetails",
        cantreviewreason: "cantReviewReason",
        cantreviewnote: "cantReviewNote",
        reviewexempt: "reviewExempt",
      } as const satisfies Partial<Record<keyof UpdateOrderBody, keyof OrderPatch>>;
      for (const [from, to] of Object.entries(simple) as [
        keyof typeof simple,
        keyof OrderPatch,
      ][]) {
        if (body[from] !== undefined) Object.assign(patch, { [to]: body[from] });
      }

      const instants = {
        dateordered: "dateOrdered",
        datedelivered: "dateDelivered",
        datereviewsubmitted: "dateReviewSubmitted",
        datereviewapproved: "dateReviewApproved",
        datereviewrejected: "dateReviewRejected",
      } as const;
      for (const [from, to] of Object.entries(instants) as [
        keyof typeof instants,
        keyof OrderPatch,
      ][]) {
        const v = body[from];
        if (v !== undefined) Object.assign(patch, { [to]: normaliseInstant(v, from) });
      }

      if (body.estimatedretailvalue !== undefined) {
        const money = body.estimatedretailvalue
          ? parseMoney(body.estimatedretailvalue, body.currency ?? cur.currency)
          : null;
        patch.estimatedRetailValue = money?.text ?? null;
        patch.valueCents = money?.cents ?? null;
      }
      if (body.currency !== undefined) patch.currency = body.currency;

      // Expected delivery: an explicitly changed date is real; a new text is read for a guess.
      const textChanged =
        body.expecteddeliverydatetext !== undefined &&
        body.expecteddeliverydatetext !== cur.expectedDeliveryDateText;
      const newDate =
        body.expecteddeliverydate === undefined
          ? undefined
          : normaliseDay(body.expecteddeliverydate, zone);
      const dateChanged = newDate !== undefined && newDate !== cur.expectedDeliveryDate;
      if (body.expecteddeliverydatetext !== undefined) {
        patch.expectedDeliveryDateText = body.expecteddeliverydatetext;
      }
      if (dateChanged) {
        patch.expectedDeliveryDate = newDate;
        patch.expectedDeliveryEstimated = false;
      } else if (textChanged) {
        const text = body.expecteddeliverydatetext ?? null;
        if (text) {
          patch.expectedDeliveryDate = parseExpectedDelivery(text, writtenAt(origin, now), zone);
          patch.expectedDeliveryEstimated = true;
        } else if (cur.expectedDeliveryEstimated) {
          patch.expectedDeliveryDate = null; // the guess goes with the text it came from
          patch.expectedDeliveryEstimated = false;
        }
      }

      const statusExplicit = body.status !== undefined;
      let status = (body.status ?? cur.status) as OrderStatus;
      if (body.trackingnumber !== undefined) {
        const t = trackingChange(cur, body.trackingnumber, body.carrier, statusExplicit);
        patch.trackingNumber = t.trackingNumber;
        patch.carrier = t.carrier;
        if (t.status) status = t.status;
      } else if (body.carrier !== undefined) {
        patch.carrier = body.carrier;
      }
      if (status !== cur.status || statusExplicit) patch.status = status;
      if (statusExplicit) Object.assign(patch, stamp(status, { ...cur, ...patch }, body, nowIso));

      patch.updatedAt = nowIso;
      const saved = deps.orders.update(userId, id, patch);
      if (!saved) throw notFound(ORDER_NOT_FOUND);
      deps.events.publish(userId, "order.updated");
      const order = toOrder(saved);
      const decided = order.status === "Review Approved" || order.status === "Review Rejected";
      if (decided && cur.status !== order.status) deps.onReviewDecided?.(userId, order);
      return order;
    },

    /**
     * PUT /api/orders/{id}/tracking: the number and carrier with the automatic status changes;
     * then, with the tracking service, a Shipped order is looked up with its carrier (trackingInfo
     * from the carrier, `warning` when that information is incomplete).
     */
    async updateTracking(
      userId: number,
      id: number,
      body: TrackingBody,
    ): Promise<TrackingUpdateResponse> {
      const cur = mustFind(userId, id);
      const number = body.trackingnumber === undefined ? cur.trackingNumber : body.trackingnumber;
      const t = trackingChange(cur, number, body.carrier, false);
      const patch: OrderPatch = {
        trackingNumber: t.trackingNumber,
        carrier: t.carrier,
        updatedAt: clock().toISOString(),
      };
      if (t.status) patch.status = t.status;
      const saved = deps.orders.update(userId, id, patch);
      if (!saved) throw notFound(ORDER_NOT_FOUND);
      deps.events.publish(userId, "order.updated");
      return deps.tracking.afterTrackingSaved(userId, saved);
    },

    /**
     * "Shipped, not tracked" orders with the day "Mark delivered" would use:
     * the shipped day plus the usual days of the order's marketplace, never after today.
     */
    untracked(userId: number): UntrackedShipment[] {
      const user = deps.users.findById(userId);
      const today = isoDayInZone(clock(), user?.timezone || "UTC");
      return deps.orders.untracked(userId).map((r) => untrackedOf(r, user?.vineMarketplace, today));
    },

    /**
     * "Mark delivered" on one order: Received on the given day, or on its usual day (shipped day
     * plus the marketplace's days; today for an order without a shipped date). Only an order on
     * its way (Ordered or Shipped) can be; a day after today is refused.
     */
    markDelivered(userId: number, id: number, day: string | null | undefined): Order {
      const cur = mustFind(userId, id);
      if (cur.status !== "Shipped" && cur.status !== "Ordered") {
        throw badRequest(
          `This order is already ${cur.status}: only an order on its way can be marked delivered`,
        );
      }
      const user = deps.users.findById(userId);
      const today = isoDayInZone(clock(), user?.timezone || "UTC");
      const date =
        checkDeliveredDay(day, today) ?? defaultDeliveredDay(cur, user?.vineMarketplace, today);
      const saved = deps.orders.update(userId, id, {
        status: "Received",
        dateDelivered: date,
        updatedAt: clock().toISOString(),
      });
      if (!saved) throw notFound(ORDER_NOT_FOUND);
      deps.events.publish(userId, "order.updated");
      return toOrder(saved);
    },

    /** "Mark all delivered": every "shipped, not tracked" order, in one transaction. */
    markAllDelivered(userId: number, day: string | null | undefined): MarkDeliveredAllResponse {
      const user = deps.users.findById(userId);
      const today = isoDayInZone(clock(), user?.timezone || "UTC");
      const given = checkDeliveredDay(day, today);
      const nowIso = clock().toISOString();
      const updated = deps.orders.transaction(() => {
        let n = 0;
        for (const r of deps.orders.untracked(userId)) {
          const date = given ?? defaultDeliveredDay(r, user?.vineMarketplace, today);
          deps.orders.update(userId, r.id, {
            status: "Received",
            dateDelivered: date,
            updatedAt: nowIso,
          });
          n++;
        }
        return n;
      });
      if (updated > 0) deps.events.publish(userId, "order.updated");
      return {
        updated,
        message:
          updated === 0
            ? "No shipped orders without tracking to mark delivered"
            : `${updated} ${updated === 1 ? "order" : "orders"} marked delivered`,
      };
    },

    /** Removes the order and its media folder (DATA_DIR/media/<userid>/<orderid>). */
    async remove(userId: number, id: number) {
      mustFind(userId, id);
      if (!deps.orders.delete(userId, id)) throw notFound(ORDER_NOT_FOUND);
      await fs.rm(path.join(deps.mediaDir, String(userId), String(id)), {
        recursive: true,
        force: true,
      });
      deps.events.publish(userId, "order.deleted");
      return { success: true as const, message: "Order deleted" };
    },

    /** The export's `orders` section: every order of the user in the API shape. */
    exportSection: ((userId: number) => ({
      orders: deps.orders.listAll(userId).map(toOrder),
    })) satisfies ExportSection,
  };
}
export type OrdersService = ReturnType<typeof createOrdersService>;
