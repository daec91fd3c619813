/**
 * "Mark delivered" for shipped-not-tracked orders (Shipped, no tracking number, a shipped date
 * from the Itemized Report): an Ordered or Shipped order becomes Received on a given day, or on
 * its shipped day plus its marketplace's usual days (never after today); all of them at once in
 * one transaction. Part of the orders service (orders.service.ts spreads it in).
 */

import type { MarkDeliveredAllResponse, Order, UntrackedShipment } from "../../contract/index.ts";
import {
  orderMarketplace,
  USUAL_DELIVERY_DAYS,
  usualDeliveredDay,
} from "../../contract/marketplaces.ts";
import type { OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { isoDayInZone } from "../../util/calendar-day.ts";
import { badRequest, notFound } from "../../util/errors.ts";
import { plural } from "../../util/plural.ts";
import type { UsersRepo } from "../users/users.repo.ts";
import { checkDeliveredDay } from "./order-fields.ts";
import { toOrder } from "./order-model.ts";
import type { OrdersRepo } from "./orders.repo.ts";

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

export function createMarkDelivered(deps: {
  orders: OrdersRepo;
  users: UsersRepo;
  events: EventBus;
  clock: () => Date;
  mustFind: (userId: number, id: number) => OrderRow;
}) {
  const { clock, mustFind } = deps;
  return {
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
        throw badRequest("mark_delivered_status", { status: cur.status });
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
      if (!saved) throw notFound("order_not_found");
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
            : `${plural(updated, { one: "order", other: "orders" })} marked delivered`,
      };
    },
  };
}
