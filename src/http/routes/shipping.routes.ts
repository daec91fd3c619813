import { Hono } from "hono";
import type { DetectCarrierResponse } from "../../contract/index.ts";
import { detectCarrierBody } from "../../contract/orders.ts";
import { detectCarrier } from "../../tracking/carrier-detect.ts";
import type { AppEnv } from "../types.ts";
import { readBody } from "../validate.ts";

/** Mounted behind requireAuth at /api/shipping. */
export function shippingRoutes() {
  return new Hono<AppEnv>().post("/detect-carrier", async (c) => {
    const body = await readBody(c, detectCarrierBody);
    const answer: DetectCarrierResponse = { carrier: detectCarrier(body.trackingNumber) };
    return c.json(answer);
  });
}
