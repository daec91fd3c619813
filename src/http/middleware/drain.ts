/**
 * Graceful stop (SIGTERM): once `begin()` is called every new request is answered 503 at once,
 * while the requests already running (uploads, imports) are counted so that main.ts can wait for
 * them, up to SHUTDOWN_GRACE_SECONDS. Live-event streams are not counted: their handler returns
 * as soon as the stream is open (main.ts closes them first).
 */
import type { MiddlewareHandler } from "hono";
import { errorBody } from "../../util/errors.ts";

export function createDrain() {
  let draining = false;
  let inFlight = 0;
  let waiters: (() => void)[] = [];

  const middleware: MiddlewareHandler = async (c, next) => {
    if (draining) {
      c.header("Retry-After", "10");
      c.header("Connection", "close");
      return c.json(errorBody("server_restarting"), 503);
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
      if (inFlight === 0) {
        const w = waiters;
        waiters = [];
        for (const resolve of w) resolve();
      }
    }
  };

  return {
    middleware,
    get draining() {
      return draining;
    },
    inFlight: () => inFlight,
    /** From now on new requests get 503. */
    begin() {
      draining = true;
    },
    /** Resolves true when no request is running, false when `timeoutMs` passed first. */
    idle(timeoutMs: number): Promise<boolean> {
      if (inFlight === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}
export type Drain = ReturnType<typeof createDrain>;
