/**
 * The live-event stream (docs/behaviour.md#states-and-transitions, docs/api.md, docs/behaviour.md#constants-and-limits), framework-free so it can be tested with a fake
 * EventSource and fake timers. One shared EventSource to /api/events/stream?token=… exists while
 * there is a token and at least one subscriber. On an error the source is closed and reopened with
 * backoff: min(1000 · 2^attempt, 30000) ms plus 0–1000 ms of jitter, at most 15 attempts, then the
 * state is 'stopped'. A successful open resets the attempts; a manual reconnect waits 1 s.
 *
 * Events carry their type (what changed), the specification's table and operation, and a
 * timestamp; web/lib/live-events-keys.ts decides what each type refetches.
 */
import type { LiveEvent } from "../../src/contract/events.ts";
import { backoffDelay as sharedBackoff } from "../../src/util/backoff.ts";

export const STREAM_PATH = "/api/events/stream";
export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;
export const RECONNECT_JITTER_MS = 1000;
export const MAX_RECONNECT_ATTEMPTS = 15;
export const MANUAL_RECONNECT_DELAY_MS = 1000;

/**
 * idle: no connection wanted (no token or no subscriber); connecting: the first open is pending;
 * connected; reconnecting: waiting for (or opening) a retry after an error; stopped: gave up after
 * the maximum attempts, until a manual reconnect or a new token.
 */
export type LiveState = "idle" | "connecting" | "connected" | "reconnecting" | "stopped";

export type LiveSnapshot = {
  state: LiveState;
  /** When the last event arrived (receipt time in this browser), null before the first one. */
  lastUpdate: Date | null;
  /** Reconnect attempts made since the last successful open. */
  attempts: number;
};

/** What this module needs of an EventSource (the browser's satisfies it). */
export type EventSourceLike = {
  onopen: ((this: never, ev: Event) => unknown) | null;
  onmessage: ((this: never, ev: MessageEvent) => unknown) | null;
  onerror: ((this: never, ev: Event) => unknown) | null;
  close(): void;
};

type TimerId = ReturnType<typeof setTimeout>;

export type LiveEventsDeps = {
  createEventSource: (url: string) => EventSourceLike;
  setTimeout?: (fn: () => void, ms: number) => TimerId;
  clearTimeout?: (id: TimerId) => void;
  /** 0 ≤ n < 1, as Math.random. */
  random?: () => number;
  now?: () => Date;
  debug?: (...args: unknown[]) => void;
};

export type LiveEventHandler = {
  onEvent: (event: LiveEvent) => void;
  /** Called after the stream reopens following a drop: events may have been missed meanwhile. */
  onResync?: () => void;
};

/** The wait before reconnect attempt number `attempt` (0-based), jitter included. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  return sharedBackoff(
    attempt,
    { baseMs: RECONNECT_BASE_MS, maxMs: RECONNECT_MAX_MS, addMs: RECONNECT_JITTER_MS },
    random,
  );
}

export function streamUrl(token: string): string {
  return `${STREAM_PATH}?token=${encodeURIComponent(token)}`;
}

/** A parsed event, or null when the message is not an object with a string `type`. */
export function parseLiveEvent(data: unknown): LiveEvent | null {
  if (typeof data !== "string") return null;
  try {
    const value = JSON.parse(data) as Partial<LiveEvent> | null;
    if (!value || typeof value !== "object" || typeof value.type !== "string") return null;
    return value as LiveEvent;
  } catch {
    return null;
  }
}

export function createLiveEvents(deps: LiveEventsDeps) {
  const setTimer = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimeout ?? ((id) => clearTimeout(id));
  const random = deps.random ?? Math.random;
  const now = deps.now ?? (() => new Date());
  const debug = deps.debug ?? ((...args: unknown[]) => console.debug(...args));

  const handlers = new Set<LiveEventHandler>();
  const watchers = new Set<() => void>();
  let token: string | null = null;
  let source: EventSourceLike | null = null;
  let timer: TimerId | null = null;
  /** Set once a source of this connection run has opened; a later open is a resync. */
  let hasOpened = false;
  let snapshot: LiveSnapshot = { state: "idle", lastUpdate: null, attempts: 0 };

  const update = (patch: Partial<LiveSnapshot>) => {
    const next = { ...snapshot, ...patch };
    if (
      next.state === snapshot.state &&
      next.lastUpdate === snapshot.lastUpdate &&
      next.attempts === snapshot.attempts
    ) {
      return;
    }
    snapshot = next;
    for (const w of watchers) w();
  };

  const wanted = () => token !== null && handlers.size > 0;

  const cancelTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };

  const closeSource = () => {
    if (!source) return;
    source.onopen = null;
    source.onmessage = null;
    source.onerror = null;
    source.close();
    source = null;
  };

  /** Closes everything and forgets the run; the state becomes idle. */
  const teardown = () => {
    cancelTimer();
    closeSource();
    hasOpened = false;
    update({ state: "idle", attempts: 0 });
  };

  const open = () => {
    timer = null;
    if (!wanted() || token === null) return;
    closeSource();
    const es = deps.createEventSource(streamUrl(token));
    source = es;
    es.onopen = () => {
      if (source !== es) return;
      const resync = hasOpened || snapshot.attempts > 0;
      hasOpened = true;
      update({ state: "connected", attempts: 0 });
      if (resync) for (const h of [...handlers]) h.onResync?.();
    };
    es.onmessage = (ev: MessageEvent) => {
      if (source !== es) return;
      const event = parseLiveEvent(ev.data);
      if (!event) {
        debug("live events: ignored a message that is not an event", ev.data);
        return;
      }
      update({ lastUpdate: now() });
      for (const h of [...handlers]) {
        try {
          h.onEvent(event);
        } catch (err) {
          debug("live events: a handler failed", err);
        }
      }
    };
    es.onerror = () => {
      if (source !== es) return;
      closeSource();
      scheduleRetry();
    };
  };

  const scheduleRetry = () => {
    cancelTimer();
    if (!wanted()) return;
    if (snapshot.attempts >= MAX_RECONNECT_ATTEMPTS) {
      update({ state: "stopped" });
      return;
    }
    const delay = backoffDelay(snapshot.attempts, random);
    update({ state: "reconnecting", attempts: snapshot.attempts + 1 });
    timer = setTimer(open, delay);
  };

  /** Opens the stream when one is wanted and none is open or pending. */
  const ensure = () => {
    if (!wanted()) {
      teardown();
      return;
    }
    if (source || timer !== null || snapshot.state === "stopped") return;
    update({ state: "connecting", attempts: 0 });
    open();
  };

  return {
    /** Sets (or clears, with null) the session token; a new token reopens the stream with it. */
    setToken(next: string | null) {
      if (next === token) return;
      token = next;
      teardown();
      ensure();
    },
    /** Adds a handler; the stream is open while there is at least one. Returns the unsubscribe. */
    subscribe(handler: LiveEventHandler): () => void {
      handlers.add(handler);
      ensure();
      return () => {
        if (!handlers.delete(handler)) return;
        if (handlers.size === 0) teardown();
      };
    },
    /** Closes the stream and opens it again after 1 s with fresh attempts (also when stopped). */
    reconnect() {
      cancelTimer();
      closeSource();
      if (!wanted()) {
        teardown();
        return;
      }
      update({ state: "reconnecting", attempts: 0 });
      timer = setTimer(open, MANUAL_RECONNECT_DELAY_MS);
    },
    getSnapshot: (): LiveSnapshot => snapshot,
    /** Calls `fn` whenever the snapshot changes. Returns the unsubscribe. */
    watch(fn: () => void): () => void {
      watchers.add(fn);
      return () => {
        watchers.delete(fn);
      };
    },
    /** Closes everything (tests, hot reload). */
    dispose() {
      handlers.clear();
      token = null;
      teardown();
    },
  };
}
export type LiveEvents = ReturnType<typeof createLiveEvents>;
