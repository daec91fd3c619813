import { Hono } from "hono";
import type { AdminLogsService } from "../../features/admin-logs/admin-logs.service.ts";
import type { AppEnv } from "../types.ts";

/** Mounted behind requireAuth + requireAdmin. */
export function adminRoutes(logs: AdminLogsService) {
  return new Hono<AppEnv>()
    .get("/logs", async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json({ files: await logs.list() });
    })
    .get("/logs/:name", async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(await logs.read(c.req.param("name")));
    })
    .get("/logs/:name/download", async (c) => {
      const { file, info } = await logs.resolve(c.req.param("name"));
      return new Response(Bun.file(file).stream(), {
        headers: {
          "Content-Type": "text/plain; charset=utf-8",
          "Content-Disposition": `attachment; filename="${info.name}"`,
          "Cache-Control": "no-store",
        },
      });
    })
    .delete("/logs/:name", async (c) => {
      const result = await logs.remove(c.req.param("name"));
      c.get("log").info({ file: c.req.param("name"), emptied: result.emptied }, "log file deleted");
      return c.json(result);
    });
}
