import { Hono } from "hono";
import { createAlertChannelBody, updateAlertChannelBody } from "../../contract/alerts.ts";
import type { AlertsService } from "../../features/alerts/alerts.service.ts";
import type { AppEnv } from "../types.ts";
import { intParam, readBody } from "../validate.ts";

/**
 * Mounted behind requireAuth at /api/user/alert-channels. Another user's channel is a
 * 404; a bad channel a 400 (alerts.service.ts, outgoing.ts). Answers never contain secrets.
 */
export function alertsRoutes(alerts: AlertsService) {
  return new Hono<AppEnv>()
    .use(async (c, next) => {
      await next();
      c.header("Cache-Control", "no-store");
    })
    .get("/", (c) => c.json(alerts.list(c.get("user").id)))
    .post("/", async (c) => {
      const body = await readBody(c, createAlertChannelBody);
      const { channel, created } = await alerts.create(c.get("user").id, body);
      return c.json(channel, created ? 201 : 200);
    })
    .get("/webpush-key", (c) => c.json(alerts.webpushKey()))
    .put("/:id", async (c) => {
      const id = intParam(c, "id");
      const body = await readBody(c, updateAlertChannelBody);
      return c.json(await alerts.update(c.get("user").id, id, body));
    })
    .delete("/:id", (c) => c.json(alerts.remove(c.get("user").id, intParam(c, "id"))))
    .post("/:id/test", async (c) => c.json(await alerts.test(c.get("user").id, intParam(c, "id"))));
}
