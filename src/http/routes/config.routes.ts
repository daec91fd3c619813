import { Hono } from "hono";
import type { PublicConfig } from "../../contract/index.ts";
import type { AppEnv } from "../types.ts";

/** GET /api/config: what this installation offers (AI help, carriers with look-ups). */
export function configRoutes(pub: PublicConfig) {
  return new Hono<AppEnv>().get("/", (c) => c.json(pub));
}
