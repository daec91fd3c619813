/**
 * How long a server asks us to wait: `retry-after-ms` (OpenAI-compatible servers), else
 * `Retry-After` as delta-seconds or as an HTTP date (RFC 9110 §10.2.3). Used by the AI client and
 * the carrier look-ups.
 */

/** The longest wait we honour: a day. */
export const RETRY_AFTER_MAX_MS = 86_400_000;

/** The wait in ms (0 to a day), or null when the headers hold none we can read. */
export function retryAfterMs(
  headers: Pick<Headers, "get"> | null | undefined,
  now: number = Date.now(),
): number | null {
  const clamp = (ms: number) => Math.min(RETRY_AFTER_MAX_MS, Math.max(0, ms));
  const ms = headers?.get("retry-after-ms")?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return clamp(Number(ms));
  const ra = headers?.get("retry-after")?.trim();
  if (!ra) return null;
  if (/^\d+(\.\d+)?$/.test(ra)) return clamp(Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? null : clamp(at - now);
}
