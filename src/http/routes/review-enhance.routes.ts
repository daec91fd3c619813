import { Hono } from "hono";
import { enhanceBody } from "../../contract/reviews.ts";
import type { EnhanceService } from "../../features/reviews/enhance.service.ts";
import type { AppEnv } from "../types.ts";
import { intParam, readBody } from "../validate.ts";

/**
 * POST /api/orders/{id}/review/enhance (docs/api.md), mounted behind requireAuth at /api/orders.
 * The rules and status codes are in enhance.service.ts. If the browser goes away, the request's
 * signal aborts the call to the AI server.
 */
export function reviewEnhanceRoutes(enhance: EnhanceService) {
  return new Hono<AppEnv>().post("/:id/review/enhance", async (c) => {
    const id = intParam(c, "id");
    const body = await readBody(c, enhanceBody);
    const result = await enhance.enhance(c.get("user").id, id, body, c.req.raw.signal);
    c.header("Cache-Control", "no-store");
    return c.json(result);
  });
}
