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
  CreateOrderBody,
  Order,
  OrderStatus,
  ParsedOrderListQuery,
  TrackingBody,
  TrackingUpdateResponse,
  UpdateOrderBody,
} from "../../contract/index.ts";
import type { OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { notFound } from "../../util/errors.ts";
import type { TrackingService } from "../tracking/tracking.service.ts";
import type { UsersRepo } from "../users/users.repo.ts";
import type { ExportSection } from "../users/users.service.ts";
import { parseExpectedDelivery } from "./expected-delivery.ts";
import { createMarkDelivered } from "./mark-delivered.ts";
import {
  normaliseDay,
  normaliseInstant,
  parseMoney,
  stamp,
  trackingChange,
  validInstant,
} from "./order-fields.ts";
import { currencyOfUser, toOrder } from "./order-model.ts";
import type { NewOrderRow, OrderListFilter, OrderPatch, OrdersRepo } from "./orders.repo.ts";

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
    if (!row) throw notFound("order_not_found");
    return row;
  }

  return {
    list(userId: number, q: ParsedOrderListQuery): OrderListResult {
      const { rows, total } = deps.orders.list(userId, listFilter(q));
      return { orders: rows.map(toOrder), total };
    },

    /** The list as GET /api/orders answers it: the page's JSON as UTF-8. */
    listJson(
      userId: number,
      q: ParsedOrderListQuery,
    ): { json: Uint8Array<ArrayBuffer>; total: number } {
      const { rows, total } = deps.orders.list(userId, listFilter(q));
      return { json: utf8.encode(JSON.stringify(rows.map(toOrder))), total };
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
      if (!saved) throw notFound("order_not_found");
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
      if (!saved) throw notFound("order_not_found");
      deps.events.publish(userId, "order.updated");
      return deps.tracking.afterTrackingSaved(userId, saved);
    },

    ...createMarkDelivered({ ...deps, clock, mustFind }),

    /** Removes the order and its media folder (DATA_DIR/media/<userid>/<orderid>). */
    async remove(userId: number, id: number) {
      mustFind(userId, id);
      if (!deps.orders.delete(userId, id)) throw notFound("order_not_found");
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
