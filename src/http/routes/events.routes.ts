import { Hono } from "hono";
import type { SseHub } from "../../events/sse.ts";
import type { AuthService } from "../../features/auth/auth.service.ts";
import { errorBody } from "../../util/errors.ts";
import { bearerToken, TOKEN_INVALID, TOKEN_REQUIRED } from "../middleware/auth.ts";
import type { AppEnv } from "../types.ts";

/**
 * GET /api/events/stream?token=… : the live event stream (docs/api.md). EventSource cannot send
 * headers, so the token comes in the query (the request log redacts it); an Authorization header
 * works too for other clients. Each user receives only their own events.
 */
export function eventsRoutes(deps: { auth: AuthService; sse: SseHub }) {
  return new Hono<AppEnv>().get("/stream", (c) => {
    const token = c.req.query("token") || bearerToken(c.req.header("authorization"));
    if (!token) return c.json(errorBody(TOKEN_REQUIRED), 401);
    const found = deps.auth.authenticate(token);
    if (!found) return c.json(errorBody(TOKEN_INVALID), 401);
    const userId = found.user.id;
    const body = deps.sse.open({
      userId,
      sessionId: found.sessionId,
      signal: c.req.raw.signal,
      // A signed-out or expired session ends the stream at the next heartbeat.
      stillValid: () => deps.auth.authenticate(token)?.user.id === userId,
    });
    return c.body(body, 200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    });
  });
}
