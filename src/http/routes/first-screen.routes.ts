import { Hono } from "hono";
import { compress } from "hono/compress";
import { firstScreenQuery } from "../../contract/first-screen.ts";
import type { FirstScreenService } from "../../features/first-screen/first-screen.service.ts";
import { bearerToken } from "../middleware/auth.ts";
import type { AppEnv } from "../types.ts";
import { invalidRequest } from "../validate.ts";

/**
 * Mounted behind requireAuth at /api/first-screen (docs/api.md): the HTML of the page being
 * opened, drawn by the web app on the server for the signed-in user; 204 when that address is
 * not a signed-in page the server draws. `inner` answers the render's own GETs in this server.
 */
export function firstScreenRoutes(
  firstScreen: FirstScreenService,
  inner: (path: string, init: RequestInit) => Promise<Response>,
) {
  return new Hono<AppEnv>().get("/", compress(), async (c) => {
    const parsed = firstScreenQuery.safeParse(c.req.query());
    if (!parsed.success) throw invalidRequest(parsed.error);
    const token = bearerToken(c.req.header("authorization")?.trim()) ?? "";
    const html = await firstScreen.render({
      ...parsed.data,
      token,
      fetch: (path, init) => {
        if (!path.startsWith("/api/")) throw new Error(`not an API path: ${path}`);
        return inner(path, init);
      },
    });
    c.header("Cache-Control", "no-store");
    if (html === null) return c.body(null, 204);
    return c.html(html);
  });
}
