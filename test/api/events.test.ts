/** Live events (docs/behaviour.md#states-and-transitions, docs/api.md, docs/behaviour.md#constants-and-limits): GET /api/events/stream?token=… as server-sent events. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import type { LiveEvent } from "../../src/contract/index.ts";
import { createSseHub, type SseHub } from "../../src/events/sse.ts";
import { html } from "../../src/features/notifications/html.ts";
import { createApp } from "../../src/http/app.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";

let h: Harness;
const hubs: SseHub[] = [];
beforeEach(() => {
  h = createHarness();
  hubs.length = 0;
  hubs.push(h.services.sse);
});
afterEach(async () => {
  for (const hub of hubs) hub.closeAll();
  await h.close();
});

/** The harness app, or one whose SSE hub has its own (short) heartbeat and limits. */
function appWith(opts: { heartbeatMs?: number; maxStreamsPerUser?: number } = {}) {
  const sse = createSseHub({ events: h.services.events, ...opts });
  hubs.push(sse);
  const app = createApp({
    config: h.config,
    db: h.db,
    log: h.logger.log,
    services: { ...h.services, sse },
  });
  return { app, sse };
}

const OPENING = "retry: 1000\n: connected\n\n";

/** Reads a text/event-stream body incrementally. */
function sseClient(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let done = false;
  let pending: ReturnType<typeof reader.read> | null = null;
  async function pump(ms: number) {
    pending ??= reader.read();
    const r = await Promise.race([pending, Bun.sleep(ms).then(() => null)]);
    if (r === null) return;
    pending = null;
    if (r.done) done = true;
    else text += decoder.decode(r.value, { stream: true });
  }
  return {
    get text() {
      return text;
    },
    get done() {
      return done;
    },
    /** Reads until pred(text) holds, the stream ends, or ms pass; returns pred(text). */
    async waitFor(pred: (text: string) => boolean, ms = 1000): Promise<boolean> {
      const until = performance.now() + ms;
      while (!pred(text) && !done) {
        const left = until - performance.now();
        if (left <= 0) break;
        await pump(left);
      }
      return pred(text);
    },
    async waitDone(ms = 1000): Promise<boolean> {
      const until = performance.now() + ms;
      while (!done) {
        const left = until - performance.now();
        if (left <= 0) break;
        await pump(left);
      }
      return done;
    },
    cancel: () => reader.cancel(),
  };
}

async function open(
  token: string,
  opts: { app?: ReturnType<typeof createApp>; signal?: AbortSignal } = {},
) {
  const app = opts.app ?? h.app;
  const res = await app.request(`/api/events/stream?token=${encodeURIComponent(token)}`, {
    signal: opts.signal,
  });
  expect(res.status).toBe(200);
  const client = sseClient(res);
  expect(await client.waitFor((t) => t.includes(": connected"))).toBe(true);
  return Object.assign(client, { res });
}

const dataLines = (text: string): LiveEvent[] =>
  text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)) as LiveEvent);

describe("authentication", () => {
  test("no token, or an empty one: 401 Access token required", async () => {
    for (const url of ["/api/events/stream", "/api/events/stream?token="]) {
      const { status, body } = await call(h, "GET", url);
      expect(status).toBe(401);
      expect(body).toEqual({ error: "Access token required", code: "token_required", values: {} });
    }
  });

  test("an unknown, revoked or expired token: 401 Invalid token", async () => {
    const bad = await call(h, "GET", "/api/events/stream?token=not-a-real-token");
    expect(bad).toMatchObject({ status: 401, body: { error: "Invalid token" } });

    const revoked = await h.register();
    expect((await call(h, "POST", "/api/auth/logout", { token: revoked.token })).status).toBe(200);
    expect(
      await call(h, "GET", `/api/events/stream?token=${encodeURIComponent(revoked.token)}`),
    ).toMatchObject({ status: 401, body: { error: "Invalid token" } });

    const expired = await h.register();
    h.db.$client
      .query("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = ?")
      .run(expired.userid);
    expect(
      await call(h, "GET", `/api/events/stream?token=${encodeURIComponent(expired.token)}`),
    ).toMatchObject({ status: 401, body: { error: "Invalid token" } });
    expect(h.services.events.subscriberCount()).toBe(0);
  });

  test("an Authorization header works for clients that can send one", async () => {
    const u = await h.register();
    const res = await h.req("GET", "/api/events/stream", { token: u.token });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });
});

describe("the stream", () => {
  test("headers, then a retry line and an opening comment", async () => {
    const u = await h.register();
    const s = await open(u.token);
    expect(s.res.headers.get("content-type")).toBe("text/event-stream");
    expect(s.res.headers.get("cache-control")).toContain("no-cache");
    expect(s.res.headers.get("x-accel-buffering")).toBe("no");
    expect(s.text).toBe(OPENING);
    expect(h.services.sse.count(u.userid)).toBe(1);
    expect(h.services.events.subscriberCount(u.userid)).toBe(1);
  });

  test("a bus event for the user arrives as one data line", async () => {
    const u = await h.register();
    const s = await open(u.token);
    const published = Date.now();
    h.services.events.publish(u.userid, "order.updated");
    expect(await s.waitFor((t) => t.includes("data: "), 1000)).toBe(true);
    const received = Date.now();
    const rest = s.text.slice(OPENING.length);
    // The specification's table, operation and timestamp stay beside the type.
    expect(rest).toMatch(
      /^data: \{"type":"order.updated","table":"order","operation":"UPDATE","timestamp":"[^"]+"\}\n\n$/,
    );
    const [event] = dataLines(rest);
    expect(Object.keys(event!)).toEqual(["type", "table", "operation", "timestamp"]);
    // Stamped when it was published: between the publish and its arrival.
    const at = Date.parse(event!.timestamp);
    expect(at).toBeGreaterThanOrEqual(published);
    expect(at).toBeLessThanOrEqual(received);
  });

  test("a change made through the API reaches the stream (notification UPDATE)", async () => {
    const u = await h.register();
    const n = h.services.notifications.notify(u.userid, "information", html`hi`);
    const s = await open(u.token);
    await call(h, "PUT", `/api/notifications/${n.notificationid}/read`, { token: u.token });
    expect(await s.waitFor((t) => t.includes("data: "))).toBe(true);
    expect(dataLines(s.text).map((e) => [e.type, e.table, e.operation])).toEqual([
      ["notification.updated", "notification", "UPDATE"],
    ]);
  });

  test("each user receives only their own events", async () => {
    const a = await h.register();
    const b = await h.register();
    const sa = await open(a.token);
    const sb = await open(b.token);
    h.services.events.publish(a.userid, "order.created");
    h.services.events.publish(a.userid, "notification.created");
    expect(await sa.waitFor((t) => dataLines(t).length === 2)).toBe(true);

    // A stream delivers in publish order: had A's events reached B, they would come before B's own.
    h.services.events.publish(b.userid, "alert-channel.delivered");
    expect(await sb.waitFor((t) => t.includes("data: "))).toBe(true);
    expect(dataLines(sb.text).map((e) => e.type)).toEqual(["alert-channel.delivered"]);
    h.services.events.publish(a.userid, "review-settings.updated");
    expect(await sa.waitFor((t) => dataLines(t).length > 2)).toBe(true);
    expect(dataLines(sa.text).map((e) => e.type)).toEqual([
      "order.created",
      "notification.created",
      "review-settings.updated",
    ]);
  });

  test("a heartbeat comment comes every heartbeat interval", async () => {
    const { app } = appWith({ heartbeatMs: 20 });
    const u = await h.register();
    const s = await open(u.token, { app });
    expect(await s.waitFor((t) => t.split(": heartbeat\n\n").length - 1 >= 3, 1000)).toBe(true);
    expect(dataLines(s.text)).toEqual([]);
  });

  test("the default heartbeat is SSE_HEARTBEAT_MS (25 s)", () => {
    expect(h.services.sse.heartbeatMs).toBe(25_000);
  });
});

describe("ending streams", () => {
  test("a client that cancels the body is unsubscribed", async () => {
    const u = await h.register();
    const s = await open(u.token);
    expect(h.services.events.subscriberCount(u.userid)).toBe(1);
    await s.cancel();
    expect(h.services.events.subscriberCount(u.userid)).toBe(0);
    expect(h.services.sse.count()).toBe(0);
    // Publishing afterwards is harmless.
    h.services.events.publish(u.userid, "order.updated");
  });

  test("a request that is aborted is unsubscribed and its stream ends", async () => {
    const u = await h.register();
    const ac = new AbortController();
    const s = await open(u.token, { signal: ac.signal });
    expect(h.services.events.subscriberCount(u.userid)).toBe(1);
    ac.abort();
    expect(h.services.events.subscriberCount(u.userid)).toBe(0);
    expect(h.services.sse.count()).toBe(0);
    expect(await s.waitDone()).toBe(true);
  });

  test("closeAll ends every open stream (shutdown)", async () => {
    const a = await h.register();
    const b = await h.register();
    const streams = [await open(a.token), await open(a.token), await open(b.token)];
    expect(h.services.sse.count()).toBe(3);
    expect(h.services.sse.closeAll()).toBe(3);
    for (const s of streams) expect(await s.waitDone()).toBe(true);
    expect(h.services.sse.count()).toBe(0);
    expect(h.services.events.subscriberCount()).toBe(0);
    expect(h.services.sse.closeAll()).toBe(0);
  });

  test("signing out ends the stream at the next heartbeat", async () => {
    const { app, sse } = appWith({ heartbeatMs: 20 });
    const u = await h.register();
    const s = await open(u.token, { app });
    await call(h, "POST", "/api/auth/logout", { token: u.token });
    expect(await s.waitDone(1000)).toBe(true);
    expect(sse.count()).toBe(0);
    expect(h.services.events.subscriberCount()).toBe(0);
  });

  test("one stream too many for a user ends that user's oldest", async () => {
    const { app, sse } = appWith({ maxStreamsPerUser: 2 });
    const u = await h.register();
    const other = await h.register();
    const o = await open(other.token, { app });
    const first = await open(u.token, { app });
    await open(u.token, { app });
    await open(u.token, { app });
    expect(await first.waitDone()).toBe(true);
    expect(sse.count(u.userid)).toBe(2);
    expect(sse.count(other.userid)).toBe(1);
    expect(o.done).toBe(false);
  });
});

describe("the request log", () => {
  test("the stream's log line shows token=[redacted], never the token", async () => {
    await h.close();
    h = createHarness({ LOG_LEVEL: "info" });
    hubs.push(h.services.sse);
    const u = await h.register();
    const s = await open(u.token);
    await s.cancel();
    const marker = "/api/events/stream?token=[redacted]";
    let text = "";
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      const file = h.logger.activeFile();
      text = file && fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
      if (text.includes(marker)) break;
      await Bun.sleep(25);
    }
    expect(text).toContain(`"path":"${marker}"`);
    expect(text).not.toContain(u.token);
  });
});

describe("over a real Bun.serve", () => {
  test("delivers within 50 ms; a client that goes away is unsubscribed", async () => {
    const u = await h.register();
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      idleTimeout: 60,
      fetch: (req, srv) => h.app.fetch(req, { server: srv }),
    });
    try {
      const ac = new AbortController();
      const res = await fetch(
        `http://127.0.0.1:${server.port}/api/events/stream?token=${encodeURIComponent(u.token)}`,
        { signal: ac.signal },
      );
      expect(res.status).toBe(200);
      const s = sseClient(res);
      expect(await s.waitFor((t) => t.includes(": connected"))).toBe(true);
      h.services.events.publish(u.userid, "mailbox.status");
      expect(await s.waitFor((t) => t.includes("data: "))).toBe(true);
      expect(dataLines(s.text).map((e) => e.operation)).toEqual(["STATUS"]);

      ac.abort();
      const deadline = Date.now() + 2000;
      while (h.services.events.subscriberCount() > 0 && Date.now() < deadline) {
        await Bun.sleep(10);
      }
      expect(h.services.events.subscriberCount()).toBe(0);
      expect(h.services.sse.count()).toBe(0);
    } finally {
      server.stop(true);
    }
  });
});
