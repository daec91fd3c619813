/** The one error type services throw; the HTTP layer turns it into `{ error, details? }`. */
export class AppError extends Error {
  constructor(
    readonly status:
      | 400
      | 401
      | 403
      | 404
      | 408
      | 409
      | 413
      | 415
      | 422
      | 429
      | 502
      | 503
      | 504
      | 507,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, message, details);
export const notFound = (message = "Not found") => new AppError(404, message);
export const forbidden = (message: string) => new AppError(403, message);
export const conflict = (message: string) => new AppError(409, message);

/* ------------------------------------------------------------------------------------------------
 * Storage faults: the disk is full, or another process holds the database's write lock. They can
 * come from any write (SQLite, a media upload, an import's temp file), so they are recognised
 * here, by their codes, and answered by the one onError (src/http/app.ts).
 * --------------------------------------------------------------------------------------------- */

export const DISK_FULL_MESSAGE =
  "The server's disk is full; nothing was saved. Free some space and try again.";
export const DB_BUSY_MESSAGE = "The database is busy; try again";
/** Seconds a client is told to wait after a 503 for a busy database. */
export const DB_BUSY_RETRY_SECONDS = 5;

export const databaseBusy = () =>
  new AppError(503, DB_BUSY_MESSAGE, undefined, { "Retry-After": String(DB_BUSY_RETRY_SECONDS) });

/** The error and its causes (drizzle wraps SQLite's error in DrizzleQueryError.cause). */
function* causes(err: unknown): Generator<{ code?: unknown }> {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === "object"; depth++) {
    yield e as { code?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
}

/** ENOSPC / EDQUOT from the file system, or SQLite's SQLITE_FULL. */
export function isDiskFull(err: unknown): boolean {
  for (const e of causes(err)) {
    if (e.code === "ENOSPC" || e.code === "EDQUOT" || e.code === "SQLITE_FULL") return true;
  }
  return false;
}

/** SQLite could not get the lock (another process is writing). */
export function isDatabaseBusy(err: unknown): boolean {
  for (const e of causes(err)) {
    if (typeof e.code === "string" && e.code.startsWith("SQLITE_BUSY")) return true;
  }
  return false;
}

/** The AppError a storage fault is answered with, or null for any other error. */
export function storageFault(err: unknown): AppError | null {
  if (err instanceof AppError) return null;
  if (isDiskFull(err)) return new AppError(507, DISK_FULL_MESSAGE);
  if (isDatabaseBusy(err)) return databaseBusy();
  return null;
}
