/**
 * Writes wait for the database without freezing the server.
 *
 * When another process (the sqlite3 shell, a backup tool) holds SQLite's write lock, bun:sqlite's
 * busy_timeout would make every write wait inside SQLite, blocking the event loop: every request,
 * health included, would stop for that long. So the connection's busy_timeout is short
 * (DB_BUSY_TIMEOUT_MS, src/db/client.ts) and every request that may write (any method but GET,
 * HEAD, OPTIONS) first waits here, asynchronously, until the lock can be taken: a try every
 * `stepMs` with the loop free in between (reads, health, other requests go on). When the lock
 * stays taken for `timeoutMs`, the request is answered 503 "The database is busy; try again" with
 * Retry-After before anything was done. The lock can still be taken by the other process between
 * this check and the handler's write; that write then fails after DB_BUSY_TIMEOUT_MS, its
 * transaction is rolled back, and onError answers the same 503: nothing is half-saved.
 */
import type { MiddlewareHandler } from "hono";
import { type Db, waitForWriteLock } from "../../db/client.ts";
import { databaseBusy } from "../../util/errors.ts";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function dbWriteGate(
  db: Db,
  opts: { timeoutMs?: number; stepMs?: number } = {},
): MiddlewareHandler {
  const timeoutMs = opts.timeoutMs ?? 4000;
  const stepMs = opts.stepMs ?? 50;
  return async (c, next) => {
    if (READ_METHODS.has(c.req.method)) return next();
    if (!(await waitForWriteLock(db, { timeoutMs, stepMs }))) {
      throw databaseBusy();
    }
    return next();
  };
}
