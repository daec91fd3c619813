import { Hono } from "hono";
import type { HealthService } from "../../features/health/health.service.ts";
import type { AppEnv } from "../types.ts";

/**
 * GET /api/health: 200 `{status:"ok", uptime, checks, freeMb}`, or 503 `{status:"error", error,
 * checks, freeMb}` where `error` names each failed check (features/health/health.service.ts).
 */
export function healthRoutes(health: HealthService, startedAt: Date) {
  return new Hono<AppEnv>().get("/", (c) => {
    c.header("Cache-Control", "no-store");
    const r = health.report();
    if (!r.ok) {
      return c.json(
        { status: "error", error: health.describe(r), checks: r.checks, freeMb: r.freeMb },
        503,
      );
    }
    return c.json({
      status: "ok",
      uptime: Math.round((Date.now() - startedAt.getTime()) / 1000),
      checks: r.checks,
      freeMb: r.freeMb,
    });
  });
}
