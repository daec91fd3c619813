/**
 * The in-process event bus. Services publish what changed for one user after it is committed; the
 * SSE route subscribes per user. An event is its type (src/contract/events.ts), the specification's
 * table and operation for it, and a timestamp: the browser refetches what it shows, so nothing
 * private travels in an event.
 */
import { LIVE_EVENTS, type LiveEvent, type LiveEventType } from "../contract/events.ts";

export type Listener = (event: LiveEvent) => void;

export function createEventBus(now: () => Date = () => new Date()) {
  const byUser = new Map<number, Set<Listener>>();
  /** Told that something happened, for anyone (src/util/idle-memory.ts: the start has not settled). */
  const watchers = new Set<() => void>();
  return {
    publish(userId: number, type: LiveEventType) {
      for (const w of watchers) {
        try {
          w();
        } catch {
          // never in the way of the event
        }
      }
      const listeners = byUser.get(userId);
      if (!listeners?.size) return;
      const [table, operation] = LIVE_EVENTS[type];
      const event: LiveEvent = { type, table, operation, timestamp: now().toISOString() };
      for (const l of listeners) {
        try {
          l(event);
        } catch {
          // one broken subscriber never stops the others
        }
      }
    },
    /** Returns the unsubscribe function. */
    subscribe(userId: number, listener: Listener): () => void {
      let set = byUser.get(userId);
      if (!set) {
        set = new Set();
        byUser.set(userId, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) byUser.delete(userId);
      };
    },
    /** `fn` is called on every event of every user, before its subscribers; returns the unsubscribe. */
    watchAll(fn: () => void): () => void {
      watchers.add(fn);
      return () => {
        watchers.delete(fn);
      };
    },
    subscriberCount(userId?: number): number {
      if (userId !== undefined) return byUser.get(userId)?.size ?? 0;
      let n = 0;
      for (const s of byUser.values()) n += s.size;
      return n;
    },
  };
}
export type EventBus = ReturnType<typeof createEventBus>;
