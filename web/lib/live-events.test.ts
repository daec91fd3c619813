import { beforeEach, describe, expect, test } from "bun:test";
import type { LiveEvent } from "../../src/contract/events.ts";
import {
  backoffDelay,
  createLiveEvents,
  type EventSourceLike,
  type LiveEventHandler,
  MANUAL_RECONNECT_DELAY_MS,
  MAX_RECONNECT_ATTEMPTS,
  parseLiveEvent,
  streamUrl,
} from "./live-events.ts";

class FakeEventSource implements EventSourceLike {
  onopen: EventSourceLike["onopen"] = null;
  onmessage: EventSourceLike["onmessage"] = null;
  onerror: EventSourceLike["onerror"] = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
  }
  open() {
    (this.onopen as ((ev: Event) => void) | null)?.(new Event("open"));
  }
  fail() {
    (this.onerror as ((ev: Event) => void) | null)?.(new Event("error"));
  }
  send(data: unknown) {
    const text = typeof data === "string" ? data : JSON.stringify(data);
    (this.onmessage as ((ev: MessageEvent) => void) | null)?.(
      new MessageEvent("message", { data: text }),
    );
  }
}

/** Timers that run only when the test advances the clock. */
class FakeClock {
  now = 0;
  private nextId = 1;
  private timers = new Map<number, { at: number; fn: () => void }>();
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id as unknown as ReturnType<typeof setTimeout>;
  };
  clearTimeout = (id: ReturnType<typeof setTimeout>) => {
    this.timers.delete(id as unknown as number);
  };
  get pending(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.now);
  }
  advance(ms: number) {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = until;
  }
}

let clock: FakeClock;
let sources: FakeEventSource[];
let randomValue: number;
let debugged: unknown[][];

function makeClient() {
  return createLiveEvents({
    createEventSource: (url) => {
      const es = new FakeEventSource(url);
      sources.push(es);
      return es;
    },
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    random: () => randomValue,
    now: () => new Date(clock.now),
    debug: (...args) => debugged.push(args),
  });
}

const handler = (events: LiveEvent[] = [], resyncs: number[] = []): LiveEventHandler => ({
  onEvent: (e) => events.push(e),
  onResync: () => resyncs.push(1),
});
const last = () => sources.at(-1)!;
const openSources = () => sources.filter((s) => !s.closed);

beforeEach(() => {
  clock = new FakeClock();
  sources = [];
  randomValue = 0;
  debugged = [];
});

describe("backoffDelay", () => {
  test("doubles from 1 s and is capped at 30 s, before jitter", () => {
    const delays = Array.from({ length: 8 }, (_, i) => backoffDelay(i, () => 0));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(backoffDelay(40, () => 0)).toBe(30000);
  });

  test("adds 0 to 1000 ms of jitter", () => {
    expect(backoffDelay(0, () => 0)).toBe(1000);
    expect(backoffDelay(0, () => 0.5)).toBe(1500);
    expect(backoffDelay(0, () => 0.999999)).toBe(1999);
    expect(backoffDelay(10, () => 0.999999)).toBe(30999);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(3);
      expect(d).toBeGreaterThanOrEqual(8000);
      expect(d).toBeLessThanOrEqual(9000);
    }
  });
});

describe("connection lifecycle", () => {
  test("no connection without a token, even with subscribers", () => {
    const live = makeClient();
    live.subscribe(handler());
    expect(sources).toHaveLength(0);
    expect(live.getSnapshot().state).toBe("idle");
  });

  test("no connection without a subscriber, even with a token", () => {
    const live = makeClient();
    live.setToken("abc");
    expect(sources).toHaveLength(0);
    expect(live.getSnapshot().state).toBe("idle");
  });

  test("connects with the token URL-encoded once both are there", () => {
    const live = makeClient();
    live.setToken("a b+c/=");
    live.subscribe(handler());
    expect(sources).toHaveLength(1);
    expect(last().url).toBe("/api/events/stream?token=a%20b%2Bc%2F%3D");
    expect(streamUrl("x&y")).toBe("/api/events/stream?token=x%26y");
    expect(live.getSnapshot().state).toBe("connecting");
    last().open();
    expect(live.getSnapshot().state).toBe("connected");
  });

  test("many subscribers share one connection; it closes when the last one leaves", () => {
    const live = makeClient();
    live.setToken("t");
    const offs = [live.subscribe(handler()), live.subscribe(handler()), live.subscribe(handler())];
    last().open();
    expect(sources).toHaveLength(1);
    offs[0]!();
    offs[1]!();
    expect(last().closed).toBe(false);
    offs[1]!(); // a second call is harmless
    expect(last().closed).toBe(false);
    offs[2]!();
    expect(last().closed).toBe(true);
    expect(live.getSnapshot().state).toBe("idle");
    live.subscribe(handler());
    expect(sources).toHaveLength(2);
    expect(openSources()).toHaveLength(1);
  });

  test("every subscriber receives each event; lastUpdate is the receipt time", () => {
    const live = makeClient();
    live.setToken("t");
    const a: LiveEvent[] = [];
    const b: LiveEvent[] = [];
    live.subscribe(handler(a));
    live.subscribe(handler(b));
    last().open();
    expect(live.getSnapshot().lastUpdate).toBeNull();
    clock.advance(5000);
    const event = {
      type: "order.created",
      table: "order",
      operation: "INSERT",
      timestamp: "2026-01-01T00:00:00Z",
    };
    last().send(event);
    expect(a).toEqual([event as LiveEvent]);
    expect(b).toEqual([event as LiveEvent]);
    expect(live.getSnapshot().lastUpdate?.getTime()).toBe(5000);
  });

  test("a message that is not an event is ignored and logged at debug level", () => {
    const live = makeClient();
    live.setToken("t");
    const events: LiveEvent[] = [];
    live.subscribe(handler(events));
    last().open();
    last().send("not json");
    last().send(JSON.stringify({ table: "order", operation: "INSERT" }));
    expect(events).toHaveLength(0);
    expect(debugged).toHaveLength(2);
    expect(live.getSnapshot().lastUpdate).toBeNull();
  });

  test("a throwing subscriber does not stop the others", () => {
    const live = makeClient();
    live.setToken("t");
    const events: LiveEvent[] = [];
    live.subscribe({
      onEvent: () => {
        throw new Error("boom");
      },
    });
    live.subscribe(handler(events));
    last().open();
    last().send({ type: "review-settings.updated", timestamp: "x" });
    expect(events).toHaveLength(1);
  });

  test("watchers hear state changes", () => {
    const live = makeClient();
    const states: string[] = [];
    live.watch(() => states.push(live.getSnapshot().state));
    live.setToken("t");
    live.subscribe(handler());
    last().open();
    last().fail();
    expect(states).toEqual(["connecting", "connected", "reconnecting"]);
  });
});

describe("reconnect with backoff", () => {
  test("on error: closes, waits 1 s, 2 s, 4 s … capped at 30 s (+ jitter) between attempts", () => {
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    last().open();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const failing = last();
      failing.fail();
      expect(failing.closed).toBe(true);
      expect(openSources()).toHaveLength(0);
      expect(live.getSnapshot().state).toBe("reconnecting");
      expect(clock.pending).toHaveLength(1);
      waits.push(clock.pending[0]!);
      const before = sources.length;
      clock.advance(clock.pending[0]! - 1);
      expect(sources.length).toBe(before); // not a millisecond early
      clock.advance(1);
      expect(sources.length).toBe(before + 1);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  test("jitter from the random source is added to each wait", () => {
    randomValue = 0.75;
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    last().fail();
    expect(clock.pending).toEqual([1750]);
    clock.advance(1750);
    last().fail();
    expect(clock.pending).toEqual([2750]);
  });

  test("stops after 15 attempts", () => {
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    last().open();
    for (let i = 0; i < MAX_RECONNECT_ATTEMPTS; i++) {
      last().fail();
      expect(live.getSnapshot().attempts).toBe(i + 1);
      clock.advance(31_000);
    }
    expect(sources).toHaveLength(1 + MAX_RECONNECT_ATTEMPTS);
    last().fail();
    expect(live.getSnapshot().state).toBe("stopped");
    expect(clock.pending).toHaveLength(0);
    clock.advance(10 * 60_000);
    expect(sources).toHaveLength(1 + MAX_RECONNECT_ATTEMPTS);
    expect(openSources()).toHaveLength(0);
    // A new subscriber does not restart a stopped stream; a manual reconnect does.
    live.subscribe(handler());
    expect(sources).toHaveLength(1 + MAX_RECONNECT_ATTEMPTS);
  });

  test("a successful open resets the attempts (and the backoff)", () => {
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    last().open();
    for (let i = 0; i < 4; i++) {
      last().fail();
      clock.advance(clock.pending[0]!);
    }
    expect(live.getSnapshot().attempts).toBe(4);
    last().open();
    expect(live.getSnapshot()).toMatchObject({ state: "connected", attempts: 0 });
    last().fail();
    expect(clock.pending).toEqual([1000]);
  });

  test("reopening after a drop asks subscribers to resync; the first open does not", () => {
    const live = makeClient();
    live.setToken("t");
    const resyncs: number[] = [];
    live.subscribe(handler([], resyncs));
    last().open();
    expect(resyncs).toHaveLength(0);
    last().fail();
    clock.advance(clock.pending[0]!);
    last().open();
    expect(resyncs).toHaveLength(1);
  });

  test("a manual reconnect waits 1 s and starts with fresh attempts, also when stopped", () => {
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    for (let i = 0; i < MAX_RECONNECT_ATTEMPTS; i++) {
      last().fail();
      clock.advance(31_000);
    }
    last().fail();
    expect(live.getSnapshot().state).toBe("stopped");
    const count = sources.length;
    live.reconnect();
    expect(live.getSnapshot()).toMatchObject({ state: "reconnecting", attempts: 0 });
    clock.advance(MANUAL_RECONNECT_DELAY_MS - 1);
    expect(sources).toHaveLength(count);
    clock.advance(1);
    expect(sources).toHaveLength(count + 1);
    last().fail();
    expect(clock.pending).toEqual([1000]);
  });

  test("a manual reconnect closes an open stream first", () => {
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    const first = last();
    first.open();
    live.reconnect();
    expect(first.closed).toBe(true);
    clock.advance(MANUAL_RECONNECT_DELAY_MS);
    expect(sources).toHaveLength(2);
    expect(openSources()).toEqual([last()]);
  });

  test("events or errors from a replaced source are ignored", () => {
    const live = makeClient();
    live.setToken("t");
    const events: LiveEvent[] = [];
    live.subscribe(handler(events));
    const first = last();
    first.open();
    live.setToken("u");
    first.send({ type: "order.created", timestamp: "x" });
    first.fail();
    expect(events).toHaveLength(0);
    expect(clock.pending).toHaveLength(0);
  });
});

describe("token changes", () => {
  test("a new token closes the stream and opens one with the new token at once", () => {
    const live = makeClient();
    live.setToken("old");
    live.subscribe(handler());
    const first = last();
    first.open();
    live.setToken("new");
    expect(first.closed).toBe(true);
    expect(sources).toHaveLength(2);
    expect(last().url).toBe(streamUrl("new"));
    expect(live.getSnapshot().state).toBe("connecting");
  });

  test("clearing the token (logout) closes the stream and cancels a pending retry", () => {
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    last().fail();
    expect(clock.pending).toHaveLength(1);
    live.setToken(null);
    expect(clock.pending).toHaveLength(0);
    expect(openSources()).toHaveLength(0);
    expect(live.getSnapshot().state).toBe("idle");
    clock.advance(60_000);
    expect(sources).toHaveLength(1);
  });

  test("a new token restarts a stopped stream", () => {
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    for (let i = 0; i <= MAX_RECONNECT_ATTEMPTS; i++) {
      last().fail();
      clock.advance(31_000);
    }
    expect(live.getSnapshot().state).toBe("stopped");
    live.setToken("t2");
    expect(live.getSnapshot().state).toBe("connecting");
    expect(last().url).toBe(streamUrl("t2"));
  });

  test("setting the same token again changes nothing", () => {
    const live = makeClient();
    live.setToken("t");
    live.subscribe(handler());
    last().open();
    live.setToken("t");
    expect(sources).toHaveLength(1);
    expect(last().closed).toBe(false);
  });
});

test("parseLiveEvent: an object with a string type", () => {
  const wire = '{"type":"order.created","table":"order","operation":"INSERT","timestamp":"t"}';
  expect(parseLiveEvent(wire)).toEqual({
    type: "order.created",
    table: "order",
    operation: "INSERT",
    timestamp: "t",
  });
  // The specification's fields alone name no change this client knows.
  expect(parseLiveEvent('{"table":"order","operation":"INSERT","timestamp":"t"}')).toBeNull();
  expect(parseLiveEvent("null")).toBeNull();
  expect(parseLiveEvent("[1]")).toBeNull();
  expect(parseLiveEvent(42)).toBeNull();
});
