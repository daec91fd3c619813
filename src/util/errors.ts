import {
  type ErrorBody,
  type ErrorCode,
  type ErrorValues,
  errorMessageId,
  shownValues,
} from "../contract/errors.ts";
import type { TextPart } from "../contract/text.ts";
import type { Language } from "../i18n/languages.ts";
import { translate } from "../i18n/translate.ts";

/**
 * The one error type services throw; the HTTP layer (src/http/app.ts) answers it with
 * `{ error, code, values, details? }`. `code` names the sentence (`error.<code>` in
 * locales/en.json, docs/api.md "Errors"); `message` is its English text with `values`, what API
 * clients and the log read; the web app shows the code's sentence in the reader's language.
 */
export class AppError extends Error {
  readonly values: ErrorValues;
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
    readonly code: ErrorCode,
    values?: ErrorValues,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
    /** Values that are server texts, as texts (ErrorBody `texts`); their value is the English. */
    readonly texts?: Record<string, TextPart>,
  ) {
    super(errorSentence("en", code, values));
    this.values = values ?? {};
  }

  /** The JSON answer. */
  body(): ErrorBody {
    return {
      error: this.message,
      code: this.code,
      values: this.values,
      ...(this.texts ? { texts: this.texts } : {}),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/** The sentence of `code` in `language`, labels in it translated (src/contract/errors.ts). */
export function errorSentence(language: Language, code: ErrorCode, values?: ErrorValues): string {
  const shown = shownValues(values, (id) => translate(language, id));
  return translate(language, errorMessageId(code), shown);
}

/** The JSON answer of a code, for the middlewares that answer without throwing. */
export const errorBody = (code: ErrorCode, values?: ErrorValues): ErrorBody => ({
  error: errorSentence("en", code, values),
  code,
  values: values ?? {},
});

export const badRequest = (code: ErrorCode, values?: ErrorValues, details?: unknown) =>
  new AppError(400, code, values, details);
export const notFound = (code: ErrorCode = "not_found", values?: ErrorValues) =>
  new AppError(404, code, values);
export const forbidden = (code: ErrorCode, values?: ErrorValues) => new AppError(403, code, values);
export const conflict = (code: ErrorCode, values?: ErrorValues) => new AppError(409, code, values);

/* ------------------------------------------------------------------------------------------------
 * Storage faults: the disk is full, or another process holds the database's write lock. They can
 * come from any write (SQLite, a media upload, an import's temp file), so they are recognised
 * here, by their codes, and answered by the one onError (src/http/app.ts).
 * --------------------------------------------------------------------------------------------- */

/** Seconds a client is told to wait after a 503 for a busy database. */
export const DB_BUSY_RETRY_SECONDS = 5;

export const databaseBusy = () =>
  new AppError(503, "database_busy", undefined, undefined, {
    "Retry-After": String(DB_BUSY_RETRY_SECONDS),
  });

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
  if (isDiskFull(err)) return new AppError(507, "disk_full");
  if (isDatabaseBusy(err)) return databaseBusy();
  return null;
}
