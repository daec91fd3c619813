/**
 * What every carrier adapter shares: one HTTP call with a timeout (AbortSignal) that turns network
 * trouble into a TrackingOutcome, the mapping of HTTP statuses that mean the same everywhere
 * (429 + Retry-After, 5xx), and small text helpers for the one-line status.
 * Nothing here ever puts a URL's credentials, a token or a secret into a message.
 */
import { retryAfterMs } from "../util/retry-after.ts";
import type { TrackingEvent, TrackingOutcome, TrackingProblem } from "./types.ts";

export type Failure = Extract<TrackingOutcome, { ok: false }>;

export type AdapterDeps = {
  fetch: typeof fetch;
  /** Milliseconds since the epoch; a controlled clock in tests (token expiry, quotas). */
  now: () => number;
  /** One carrier call gives up after this long. */
  timeoutMs: number;
};

export type HttpAnswer = { status: number; headers: Headers; text: string };

export const fail = (reason: Failure["reason"], message: string, retryAfterMs?: number): Failure =>
  retryAfterMs === undefined
    ? { ok: false, reason, message }
    : { ok: false, reason, message, retryAfterMs };

export const isFailure = (v: unknown): v is Failure =>
  typeof v === "object" && v !== null && (v as { ok?: unknown }).ok === false;

const seconds = (ms: number) =>
  ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;

/**
 * One request, body read included, within `timeoutMs` (and the caller's signal). Answers the
 * status, headers and body text, or a failure: "timeout", or "server-error" for a network fault.
 */
export async function send(
  deps: AdapterDeps,
  name: string,
  url: string,
  init: RequestInit,
  signal?: AbortSignal,
): Promise<HttpAnswer | Failure> {
  const timer = AbortSignal.timeout(deps.timeoutMs);
  const s = signal ? AbortSignal.any([timer, signal]) : timer;
  try {
    const res = await deps.fetch(url, { ...init, signal: s, redirect: "manual" });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text };
  } catch (err) {
    if (timer.aborted)
      return fail("timeout", `${name} did not answer within ${seconds(deps.timeoutMs)}`);
    if (signal?.aborted) return fail("timeout", `${name} look-up was cancelled`);
    const code = (err as { code?: unknown })?.code;
    return fail(
      "server-error",
      `Could not reach ${name}${typeof code === "string" ? ` (${code})` : ""}`,
    );
  }
}

/** The failures every carrier means the same way by: 429 and 5xx. Null when the status is another. */
export function commonFailure(name: string, a: HttpAnswer, now: number): Failure | null {
  if (a.status === 429) {
    const wait = retryAfterMs(a.headers, now) ?? 60_000;
    return fail(
      "rate-limited",
      `${name} asks us to slow down (HTTP 429); next try in ${seconds(wait)}`,
      wait,
    );
  }
  if (a.status >= 500) return fail("server-error", `${name} answered HTTP ${a.status}`);
  return null;
}

/** JSON.parse without throwing: undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const unreadable = (name: string, what = "an answer we could not read") =>
  fail("unreadable", `${name} sent ${what}`);

/** "DELIVERED" → "Delivered"; mixed-case text is left alone. */
export function sentenceCase(s: string): string {
  const t = s.trim().replace(/\s+/g, " ");
  if (t !== t.toUpperCase()) return t;
  return t.charAt(0) + t.slice(1).toLowerCase();
}

/** "AUSTIN", "TX", "US" → "AUSTIN TX" (country left out when US). */
export function place(...parts: (string | null | undefined)[]): string | null {
  const [city, state, country] = parts.map((p) => (typeof p === "string" ? p.trim() : ""));
  const words = [city, state, country && country !== "US" ? country : ""].filter(Boolean);
  return words.length ? words.join(" ") : null;
}

/** "Delivered" + "AUSTIN TX" → "Delivered, AUSTIN TX". */
export const oneLine = (text: string, where: string | null) => (where ? `${text}, ${where}` : text);

/** Latest first, at most 10. */
export const latest = (events: TrackingEvent[]) => events.slice(0, 10);

/**
 * A carrier's answer, read: its status line said the same way for every carrier (docs/behaviour.md#carriers):
 * "Delivered, AUSTIN TX", the problem in the carrier's words, or "In transit: Arrived at facility".
 * `text` is the carrier's latest words ("" when it has none), `where` the latest place; `words`
 * are said when the carrier says nothing; `status` replaces the line when the carrier's own text
 * already is one (USPS names the place in it).
 */
export function tracked(r: {
  delivered: boolean;
  deliveredAt: string | null;
  expectedDelivery: string | null;
  text: string;
  where: string | null;
  events: TrackingEvent[];
  problem: TrackingProblem | null;
  words?: { delivered?: string; problem?: string };
  status?: string;
}): TrackingOutcome {
  const { delivered, text, where } = r;
  const status =
    r.status ??
    (delivered
      ? oneLine(text || r.words?.delivered || "Delivered", where)
      : r.problem
        ? oneLine(text || r.words?.problem || "Exception", where)
        : oneLine(`In transit: ${text || "on the way"}`, where));
  return {
    ok: true,
    result: {
      delivered,
      deliveredAt: delivered ? r.deliveredAt : null,
      expectedDelivery: delivered ? null : r.expectedDelivery,
      status,
      events: latest(r.events),
      problem: delivered ? null : r.problem,
    },
  };
}

/** A carrier date string → YYYY-MM-DD, or null ("20250714", "2025-07-14T…"). */
export function isoDay(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const s = v.trim();
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

export const str = (v: unknown): string | null =>
  typeof v === "string" && v.trim() ? v.trim() : null;
export const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
export const arr = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : null);

/** The first error message in the common carrier error shapes, for messages (never credentials). */
export function errorText(body: unknown): string | null {
  const b = obj(body);
  const lists = [arr(obj(b?.response)?.errors), arr(b?.errors), arr(obj(b?.error)?.errors)];
  for (const l of lists) {
    const e = obj(l?.[0]);
    const m = str(e?.message) ?? str(e?.detail) ?? str(e?.title);
    if (m) return m.slice(0, 200);
  }
  return str(obj(b?.error)?.message)?.slice(0, 200) ?? null;
}

/** "UPS look-ups need UPS_CLIENT_ID and UPS_CLIENT_SECRET (see docs/CARRIERS.md)". */
export const notConfigured = (name: string, settings: string[]) =>
  fail("not-configured", `${name} look-ups need ${settings.join(" and ")} (see docs/CARRIERS.md)`);

/**
 * The tail every adapter's track() shares: a transport failure as it is; 429 and 5xx as every
 * carrier means them; 404 → not-found; another status than `okStatuses` → the carrier's own
 * reading (`refuse`, e.g. UPS's 400 for an unknown number) or unreadable with its error text; a
 * body that is not JSON → unreadable; else the carrier's parser.
 */
export function toOutcome(
  name: string,
  a: HttpAnswer | Failure,
  now: number,
  opts: {
    notFound: string;
    okStatuses?: readonly number[];
    refuse?: (status: number, why: string | null) => Failure | null;
    parse: (body: unknown) => TrackingOutcome;
  },
): TrackingOutcome {
  if (isFailure(a)) return a;
  const common = commonFailure(name, a, now);
  if (common) return common;
  const body = parseJson(a.text);
  if (a.status === 404) return fail("not-found", opts.notFound);
  if (!(opts.okStatuses ?? [200]).includes(a.status)) {
    const why = errorText(body);
    return (
      opts.refuse?.(a.status, why) ??
      fail("unreadable", `${name} answered HTTP ${a.status}${why ? `: ${why}` : ""}`)
    );
  }
  if (body === undefined) return unreadable(name);
  return opts.parse(body);
}
