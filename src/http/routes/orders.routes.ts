import type { Context } from "hono";
import { Hono } from "hono";
import {
  createOrderBody,
  markDeliveredBody,
  orderListQuery,
  trackingBody,
  updateOrderBody,
} from "../../contract/orders.ts";
import type { OrdersService } from "../../features/orders/orders.service.ts";
import type { TrackingService } from "../../features/tracking/tracking.service.ts";
import type { AppEnv } from "../types.ts";
import { intParam, invalidRequest, readBody } from "../validate.ts";

/** The list's query string, checked against the contract; the first problem is the 400 message. */
function readListQuery(c: Context) {
  const parsed = orderListQuery.safeParse(c.req.query());
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}

/** Mounted behind requireAuth at /api/orders: every handler acts on the signed-in user's orders. */
export function ordersRoutes(orders: OrdersService, tracking: TrackingService) {
  return new Hono<AppEnv>()
    .get("/", (c) => {
      const { json, total } = orders.listJson(c.get("user").id, readListQuery(c));
      c.header("X-Total-Count", String(total));
      c.header("Cache-Control", "no-store");
      c.header("Content-Type", "application/json");
      return c.body(json);
    })
    .get("/untracked", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json({ orders: orders.untracked(c.get("user").id) });
    })
    .post("/untracked/delivered", async (c) => {
      const body = await readBody(c, markDeliveredBody);
      return c.json(orders.markAllDelivered(c.get("user").id, body.datedelivered));
    })
    .post("/", async (c) => {
      const body = await readBody(c, createOrderBody);
      return c.json(orders.create(c.get("user").id, body), 201);
    })
    .get("/:id", (c) => {
      const id = intParam(c, "id");
      c.header("Cache-Control", "no-store");
      return c.json(orders.get(c.get("user").id, id));
    })
    .put("/:id", async (c) => {
      const id = intParam(c, "id");
      const body = await readBody(c, updateOrderBody);
      return c.json(orders.update(c.get("user").id, id, body));
    })
    .delete("/:id", async (c) => {
      const id = intParam(c, "id");
      return c.json(await orders.remove(c.get("user").id, id));
    })
    .post("/:id/delivered", async (c) => {
      const id = intParam(c, "id");
      const body = await readBody(c, markDeliveredBody);
      return c.json(orders.markDelivered(c.get("user").id, id, body.datedelivered));
    })
    .put("/:id/tracking", async (c) => {
      const id = intParam(c, "id");
      const body = await readBody(c, trackingBody);
      return c.json(await orders.updateTracking(c.get("user").id, id, body));
    })
    .post("/:id/tracking/update", async (c) => {
      // The order's carrier look-up (docs/api.md), as POST /api/tracking/update-order/{id};
      // failures are 4xx/502/503/504 and change nothing (tracking.service.ts).
      const id = intParam(c, "id");
      return c.json(await tracking.updateOrder(c.get("user").id, id));
    });
}
