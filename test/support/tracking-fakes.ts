/**
 * Test doubles for tracking tests that do not need carrier HTTP: a controlled clock with timers
 * (the scheduler's injectable ones) and an in-memory CarrierLookup that records every call.
 */
import type { Carrier } from "../../src/contract/index.ts";
import type { SchedulerTimers } from "../../src/features/tracking/tracking.scheduler.ts";
import type { CarrierLookup, TrackingOutcome } from "../../src/tracking/types.ts";

export type FakeTime = {
  now: () => Date;
  timers: SchedulerTimers;
  /** Timers waiting, soonest first (ISO). */
  pending: () => string[];
  /**
   * Moves the clock to `iso`, firing every timer due on the way at its own time, in order, and
   * calling `settle` after each (to let the work it started finish).
   */
  advanceTo: (iso: string, settle?: () => Promise<void>) => Promise<void>;
  set: (iso: string) => void;
};

export function fakeTime(startIso: string): FakeTime {
  let t = Date.parse(startIso);
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => new Date(t),
    timers: {
      setTimeout(fn, ms) {
        const id = ++seq;
        timers.set(id, { at: t + Math.max(0, ms), fn });
        return id;
      },
      clearTimeout(handle) {
        timers.delete(handle as number);
      },
    },
    pending: () =>
      [...timers.values()].sort((a, b) => a.at - b.at).map((x) => new Date(x.at).toISOString()),
    async advanceTo(iso, settle) {
      const target = Date.parse(iso);
      for (;;) {
        let next: [number, { at: number; fn: () => void }] | null = null;
        for (const entry of timers) {
          if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
        }
        if (!next) break;
        timers.delete(next[0]);
        t = Math.max(t, next[1].at);
        next[1].fn();
        await settle?.();
      }
      t = Math.max(t, target);
    },
    set(iso) {
      t = Date.parse(iso);
    },
  };
}

export type LookupCall = { carrier: Carrier | null; number: string; at: string };

/** An in-memory lookup: answers from `answers` (in transit by default) and records each call. */
export function memoryLookup(
  now: () => Date,
  opts: { supported?: Carrier[] } = {},
): CarrierLookup & {
  calls: LookupCall[];
  answers: Map<string, TrackingOutcome | (() => Promise<TrackingOutcome>)>;
} {
  const calls: LookupCall[] = [];
  const answers = new Map<string, TrackingOutcome | (() => Promise<TrackingOutcome>)>();
  return {
    calls,
    answers,
    supported: () => opts.supported ?? ["UPS", "FEDEX", "USPS"],
    async track(carrier, number) {
      calls.push({ carrier, number, at: now().toISOString() });
      const a = answers.get(number);
      if (typeof a === "function") return a();
      return (
        a ?? {
          ok: true,
          result: {
            delivered: false,
            deliveredAt: null,
            expectedDelivery: null,
            status: "In transit",
            events: [],
          },
        }
      );
    },
  };
}
