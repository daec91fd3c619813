import type { MiddlewareHandler } from "hono";
import { type Logger, redactUrl } from "../../log.ts";
import type { AppEnv } from "../types.ts";

/** One log line per request: id, method, path (token= redacted), status and duration. */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId =
      incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID().slice(0, 8);
    c.set("requestId", requestId);
    c.set("log", log.child({ reqId: requestId }));
    try {
      await next();
    } finally {
      c.header("X-Request-Id", requestId);
      const status = c.res.status;
      // The line is only built when it will be written (LOG_LEVEL info or lower, or an error).
      if (status >= 500 || log.isLevelEnabled("info")) {
        const url = new URL(c.req.url);
        const line = {
          reqId: requestId,
          method: c.req.method,
          path: redactUrl(url.pathname + url.search),
          status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        };
        if (status >= 500) log.error(line, "request");
        else log.info(line, "request");
      }
    }
  };
}
