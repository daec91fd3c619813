import { Hono } from "hono";
import { type Db, pingDatabase } from "../../db/client.ts";
import type { AppEnv } from "../types.ts";

export function healthRoutes(db: Db, startedAt: Date) {
  return new Hono<AppEnv>().get("/", (c) => {
    c.header("Cache-Control", "no-store");
    if (!pingDatabase(db)) return c.json({ status: "error", error: "Database unavailable" }, 503);
    return c.json({ status: "ok", uptime: Math.round((Date.now() - startedAt.getTime()) / 1000) });
  });
}
