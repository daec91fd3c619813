import { Hono } from "hono";
import type { DashboardService } from "../../features/dashboard/dashboard.service.ts";
import type { AppEnv } from "../types.ts";

/** Mounted behind requireAuth at /api/dashboard; always fresh (the browser caches per docs/api.md). */
export function dashboardRoutes(dashboard: DashboardService) {
  return new Hono<AppEnv>()
    .get("/counts", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(dashboard.counts(c.get("user").id));
    })
    .get("/recent", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(dashboard.recent(c.get("user").id));
    })
    .get("/stats", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(dashboard.stats(c.get("user").id));
    });
}
