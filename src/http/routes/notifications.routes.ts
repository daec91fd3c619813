import { Hono } from "hono";
import type { NotificationsService } from "../../features/notifications/notifications.service.ts";
import type { AppEnv } from "../types.ts";
import { intParam } from "../validate.ts";

/**
 * Mounted behind requireAuth at /api/notifications. The fixed paths (mark-all-read, delete-all)
 * are registered before /:id so they are never read as an id; any other id that is not a positive
 * integer is a 400.
 */
export function notificationsRoutes(notifications: NotificationsService) {
  return new Hono<AppEnv>()
    .get("/", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(notifications.list(c.get("user").id));
    })
    .put("/mark-all-read", (c) => c.json(notifications.markAllRead(c.get("user").id)))
    .delete("/delete-all", (c) => c.json(notifications.deleteAll(c.get("user").id)))
    .put("/:id/read", (c) => c.json(notifications.markRead(c.get("user").id, intParam(c, "id"))))
    .delete("/:id", (c) => c.json(notifications.remove(c.get("user").id, intParam(c, "id"))));
}
