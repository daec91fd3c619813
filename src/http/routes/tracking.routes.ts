import { Hono } from "hono";
import { trackingPreferencesBody } from "../../contract/tracking.ts";
import type { TrackingService } from "../../features/tracking/tracking.service.ts";
import type { AppEnv } from "../types.ts";
import { intParam, readBody } from "../validate.ts";

/**
 * Mounted behind requireAuth at /api/tracking (docs/api.md). Status codes of a failed single-order
 * look-up are listed in tracking.service.ts; none of them changes the order.
 */
export function trackingRoutes(tracking: TrackingService) {
  return new Hono<AppEnv>()
    .get("/preferences", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(tracking.getPreferences(c.get("user").id));
    })
    .post("/preferences", async (c) => {
      const body = await readBody(c, trackingPreferencesBody);
      return c.json(tracking.savePreferences(c.get("user").id, body));
    })
    .post("/update-all", async (c) => c.json(await tracking.updateAll(c.get("user").id)))
    .post("/update-order/:id", async (c) => {
      const id = intParam(c, "id");
      return c.json(await tracking.updateOrder(c.get("user").id, id));
    });
}
