/**
 * Alert channels against local far sides (test/support/fake-alerts.ts): ntfy, a webhook
 * receiver and a Web Push service whose payload is decrypted with the subscription's keys. The
 * sender's clock is the test's: retries, Retry-After, quiet hours and the day of failures are
 * reached by moving it and waking the sender, never by sleeping.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as ece from "http_ece";
import type { AlertChannel, AlertWebhookJson } from "../../src/contract/index.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { vapidSubject } from "../../src/features/alerts/alerts.service.ts";
import { html } from "../../src/features/notifications/html.ts";
import { createHarness, type Harness } from "../harness.ts";
import { type FakeAlerts, startFakeAlerts } from "../support/fake-alerts.ts";
import { selfSignedCert } from "../support/self-signed.ts";

let fake: FakeAlerts;
beforeAll(() => {
  fake = startFakeAlerts();
});
afterAll(() => fake.stop());

/** A name that resolves to the metadata address, and one to loopback (for the fake). */
const resolve = async (host: string) => {
  if (host === "metadata.test") return [{ address: "169.254.169.254", family: 4 }];
  if (host === "mixed.test") {
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "fe80::1", family: 6 },
    ];
  }
  if (host === "fake.test") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

let clock = new Date("2026-03-10T12:00:00Z");
const open: Harness[] = [];
function harness(env: Record<string, string> = {}) {
  const h = createHarness(
    // The far sides are local fakes on 127.0.0.1 (security-audit-2.test.ts: refused without it).
    { PUBLIC_URL: "http://grapevine.local:3000", ALERTS_ALLOW_LOOPBACK: "true", ...env },
    { alerts: { now: () => clock, retryDelaysMs: [60_000, 120_000], timeoutMs: 2_000, resolve } },
  );
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  fake.requests.length = 0;
  clock = new Date("2026-03-10T12:00:00Z");
});

async function addChannel(h: Harness, token: string, body: Record<string, unknown>) {
  const res = await h.req("POST", "/api/user/alert-channels", { token, body });
  expect(res.status).toBe(201);
  return (await res.json()) as AlertChannel;
}
const outbox = (h: Harness) =>
  h.db.$client
    .query(
      "SELECT event, status, attempts, next_attempt_at AS next, result, quiet FROM alert_outbox WHERE event <> 'test' ORDER BY id",
    )
    .all() as {
    event: string;
    status: string;
    attempts: number;
    next: string;
    result: string;
    quiet: number;
  }[];
async function settle(h: Harness) {
  h.services.alerts.kick();
  await h.services.alerts.idle();
}

describe("channels", () => {
  test("ntfy: created with secrets encrypted and masked, listed, changed, deleted; another user gets 404", async () => {
    const h = harness();
    await h.register(); // user 1: the admin
    const a = await h.register();
    const b = await h.register();
    const ch = await addChannel(h, a.token, {
      type: "ntfy",
      serverUrl: `${fake.url}/`,
      topic: "vine-secret-topic",
      token: "tk_abcdefghijklmnop",
    });
    expect(ch.type).toBe("ntfy");
    expect(ch.ntfy).toEqual({
      serverUrl: fake.url,
      topic: "vin••••",
      auth: "token",
      token: "••••mnop",
    });
    expect(ch.events).not.toContain("disk_nearly_full"); // user 1 is admin, a is not
    const raw = JSON.stringify(h.db.$client.query("SELECT * FROM alert_channels").all());
    expect(raw).not.toContain("tk_abcdefghijklmnop");
    expect(raw).not.toContain("vine-secret-topic");

    const list = (await (
      await h.req("GET", "/api/user/alert-channels", { token: a.token })
    ).json()) as AlertChannel[];
    expect(list.map((c) => c.id)).toEqual([ch.id]);
    expect(JSON.stringify(list)).not.toContain("abcdefghijklmnop");
    expect(
      await (await h.req("GET", "/api/user/alert-channels", { token: b.token })).json(),
    ).toEqual([]);

    for (const [method, url] of [
      ["PUT", `/api/user/alert-channels/${ch.id}`],
      ["DELETE", `/api/user/alert-channels/${ch.id}`],
      ["POST", `/api/user/alert-channels/${ch.id}/test`],
    ] as const) {
      const res = await h.req(method, url, {
        token: b.token,
        body: method === "PUT" ? { name: "x" } : undefined,
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        error: "Alert channel not found",
        code: "alert_channel_not_found",
        values: {},
      });
    }

    // Leaving the token out keeps it; quiet hours and events change.
    const put = await h.req("PUT", `/api/user/alert-channels/${ch.id}`, {
      token: a.token,
      body: { name: "Phone", events: ["delivered"], quietHours: { start: "22:00", end: "07:00" } },
    });
    expect(put.status).toBe(200);
    const changed = (await put.json()) as AlertChannel;
    expect(changed).toMatchObject({
      name: "Phone",
      events: ["delivered"],
      quietHours: { start: "22:00", end: "07:00" },
    });
    expect(changed.ntfy?.token).toBe("••••mnop");
    fake.ntfyToken = "tk_abcdefghijklmnop";
    try {
      expect(
        await (
          await h.req("POST", `/api/user/alert-channels/${ch.id}/test`, { token: a.token })
        ).json(),
      ).toEqual({ ok: true });
    } finally {
      fake.ntfyToken = null;
    }
    // The export lists the channel as the API shows it: no secret in it.
    const exported = await (await h.req("GET", "/api/user/export", { token: a.token })).text();
    expect(
      (JSON.parse(exported) as { alertChannels: AlertChannel[] }).alertChannels.map((c) => c.id),
    ).toEqual([ch.id]);
    expect(exported).not.toContain("abcdefghijklmnop");
    expect(exported).not.toContain("vine-secret-topic");
    const del = await h.req("DELETE", `/api/user/alert-channels/${ch.id}`, { token: a.token });
    expect(del.status).toBe(200);
    expect(
      await (await h.req("GET", "/api/user/alert-channels", { token: a.token })).json(),
    ).toEqual([]);
  });

  test("bad channels are 400s with a sentence, and nothing is stored", async () => {
    const h = harness();
    const a = await h.register();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: "sms", to: "123" }, /type must be ntfy, webhook or webpush/],
      [{ type: "webhook", url: "ftp://example.com/x", format: "json" }, /http:\/\/ or https:\/\//],
      [{ type: "webhook", url: "http://example.com/x", format: "xml" }, /json, discord or slack/],
      [{ type: "ntfy", topic: "" }, /topic cannot be empty/],
      [{ type: "ntfy", topic: "a b" }, /letters, digits/],
      [
        { type: "ntfy", topic: "t", token: "abc", username: "u", password: "p" },
        /either an access token/,
      ],
      [
        { type: "webhook", url: "http://169.254.169.254/latest/meta-data", format: "json" },
        /link-local or cloud metadata/,
      ],
      [
        { type: "webhook", url: "http://[fe80::1]/x", format: "json" },
        /link-local or cloud metadata/,
      ],
      [
        { type: "webhook", url: "http://[fd00:ec2::254]/x", format: "json" },
        /link-local or cloud metadata/,
      ],
      [
        { type: "webhook", url: "http://metadata.test/x", format: "json" },
        /metadata\.test resolves to 169\.254\.169\.254/,
      ],
      [
        { type: "ntfy", serverUrl: "http://mixed.test", topic: "t" },
        /mixed\.test resolves to fe80::1/,
      ],
      [
        {
          type: "webhook",
          url: "http://example.com/x",
          format: "json",
          events: ["disk_nearly_full"],
        },
        /administrator only/,
      ],
      [
        {
          type: "webpush",
          subscription: { endpoint: `${fake.url}/push/1`, keys: { p256dh: "abc", auth: "def" } },
        },
        /keys are not valid/,
      ],
    ];
    await h.register(); // a second user (a is the admin: register another to be a plain user)
    const plain = await h.register();
    for (const [body, message] of cases) {
      const res = await h.req("POST", "/api/user/alert-channels", { token: plain.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    // A refused address says which sentence and its values, for the reader's language.
    const refused = await h.req("POST", "/api/user/alert-channels", {
      token: plain.token,
      body: { type: "webhook", url: "http://metadata.test/x", format: "json" },
    });
    expect(await refused.json()).toEqual({
      error:
        "metadata.test resolves to 169.254.169.254, a link-local or cloud metadata address, which alerts are never sent to",
      code: "alert_address_refused",
      values: {
        kind: "addressResolves",
        host: "metadata.test",
        address: "169.254.169.254",
        why: "metadata",
        reason:
          "metadata.test resolves to 169.254.169.254, a link-local or cloud metadata address, which alerts are never sent to",
      },
    });
    expect(h.db.$client.query("SELECT count(*) AS n FROM alert_channels").get()).toEqual({ n: 0 });
    // The admin may choose server problems; LAN and loopback targets are fine.
    const ok = await h.req("POST", "/api/user/alert-channels", {
      token: a.token,
      body: {
        type: "webhook",
        url: "http://192.168.1.20:8123/api/webhook/abc",
        format: "json",
        events: ["disk_nearly_full"],
      },
    });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as AlertChannel).webhook).toEqual({
      url: "http://192.168.1.20:8123/••••",
      format: "json",
    });
  });
});

describe("test endpoint: what the far side said", () => {
  test("500, 404, timeout, DNS, a redirect to another host; all answered as sentences", async () => {
    const h = harness();
    const a = await h.register();
    const hook = await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/t1`,
      format: "json",
    });
    const testIt = async () => {
      // A minute apart: tests are limited per minute (security-audit-2.test.ts).
      clock = new Date(clock.getTime() + 60_000);
      return (await (
        await h.req("POST", `/api/user/alert-channels/${hook.id}/test`, { token: a.token })
      ).json()) as {
        ok: boolean;
        error?: string;
        errorCode?: string;
        errorValues?: Record<string, unknown>;
      };
    };
    expect(await testIt()).toEqual({ ok: true });
    const sent = fake.requests.at(-1)?.json as AlertWebhookJson;
    expect(sent).toMatchObject({
      event: "test",
      title: "Grapevine test alert",
      url: "http://grapevine.local:3000/account?tab=alerts",
      order: null,
    });

    // The status and a fixed sentence; the far side's words are never shown.
    fake.script("/hook/t1", { status: 500, body: "database is down" });
    expect(await testIt()).toEqual({
      ok: false,
      error: "The webhook answered 500 (an error on its side)",
      // The same as a catalog id and values, for a reader in another language.
      errorCode: "alerts.server.answered",
      errorValues: { who: "webhook", status: 500, reason: "serverError" },
    });
    fake.script("/hook/t1", { status: 404, body: JSON.stringify({ message: "Unknown Webhook" }) });
    expect(await testIt()).toEqual({
      ok: false,
      error: "The webhook answered 404 (nothing there: check the address)",
      errorCode: "alerts.server.answered",
      errorValues: { who: "webhook", status: 404, reason: "missing" },
    });
    fake.script("/hook/t1", "hang");
    const port = new URL(fake.url).port;
    expect(await testIt()).toEqual({
      ok: false,
      error: `127.0.0.1:${port} could not be reached as a web server (the connection failed, was refused or had no answer within 2 seconds)`,
      errorCode: "alerts.server.unreachable",
      errorValues: { host: `127.0.0.1:${port}`, seconds: 2 },
    });
    fake.script("/hook/t1", {
      status: 302,
      headers: { location: `http://127.0.0.2:${port}/hook/elsewhere` },
    });
    expect(await testIt()).toEqual({
      ok: false,
      error: `127.0.0.1:${port} answered 302 with a redirect to another host, which is not followed`,
      errorCode: "alerts.server.redirectElsewhere",
      errorValues: { host: `127.0.0.1:${port}`, status: 302 },
    });
    fake.script("/hook/t1", { status: 307, headers: { location: "/hook/moved" } });
    expect(await testIt()).toEqual({ ok: true });
    expect(fake.requests.at(-1)?.path).toBe("/hook/moved");
    // A huge answer is not read past the cap, and not shown.
    fake.script("/hook/t1", { status: 400, body: "x".repeat(100_000) });
    expect(await testIt()).toEqual({
      ok: false,
      error: "The webhook answered 400 (it did not accept the alert)",
      errorCode: "alerts.server.answered",
      errorValues: { who: "webhook", status: 400, reason: "refused" },
    });

    const dns = await addChannel(h, a.token, {
      type: "webhook",
      url: "http://nowhere.test/hook",
      format: "slack",
    });
    expect(
      await (
        await h.req("POST", `/api/user/alert-channels/${dns.id}/test`, { token: a.token })
      ).json(),
    ).toEqual({
      ok: false,
      error: "nowhere.test could not be found (DNS)",
      errorCode: "alerts.server.dns",
      errorValues: { host: "nowhere.test" },
    });

    // The deliveries list shows the tests, newest first.
    const [listed] = (await (
      await h.req("GET", "/api/user/alert-channels", { token: a.token })
    ).json()) as AlertChannel[];
    expect(listed?.deliveries[0]).toMatchObject({
      event: "test",
      status: "failed",
      result: "The webhook answered 400 (it did not accept the alert)",
    });
    expect(listed?.deliveries.length).toBe(5);
  });

  test("a certificate the server cannot verify is a TLS failure, in words", async () => {
    const { key, cert } = selfSignedCert();
    const tls = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert, key },
      fetch: () => new Response("ok"),
    });
    try {
      const h = harness();
      const a = await h.register();
      const ch = await addChannel(h, a.token, {
        type: "webhook",
        url: `https://127.0.0.1:${tls.port}/hook`,
        format: "json",
      });
      const r = (await (
        await h.req("POST", `/api/user/alert-channels/${ch.id}/test`, { token: a.token })
      ).json()) as {
        ok: boolean;
        error: string;
      };
      expect(r.ok).toBe(false);
      expect(r.error).toBe(
        `The secure connection to 127.0.0.1:${tls.port} failed (TLS: its certificate could not be verified, or it does not speak https)`,
      );
    } finally {
      tls.stop(true);
    }
  });

  test("ntfy answers 401 to a wrong token: the test says so", async () => {
    const h = harness();
    const a = await h.register();
    fake.ntfyToken = "right-token-123456";
    try {
      const ch = await addChannel(h, a.token, {
        type: "ntfy",
        serverUrl: fake.url,
        topic: "t",
        token: "wrong-token-123456",
      });
      expect(
        await (
          await h.req("POST", `/api/user/alert-channels/${ch.id}/test`, { token: a.token })
        ).json(),
      ).toEqual({
        ok: false,
        error: "ntfy answered 401 (access denied: check the address, token or password)",
        errorCode: "alerts.server.answered",
        errorValues: { who: "ntfy", status: 401, reason: "denied" },
      });
    } finally {
      fake.ntfyToken = null;
    }
  });
});

describe("delivery from notifications", () => {
  test("a tagged notification reaches the channels that chose it, in each far side's shape; notify does not wait", async () => {
    const h = harness();
    const a = await h.register();
    await addChannel(h, a.token, {
      type: "ntfy",
      serverUrl: fake.url,
      topic: "grapes",
      events: ["delivered"],
    });
    await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/json`,
      format: "json",
      events: ["delivered"],
    });
    await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/discord`,
      format: "discord",
      events: ["delivered"],
    });
    await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/slack`,
      format: "slack",
      events: ["delivered"],
    });
    await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/other`,
      format: "json",
      events: ["new_order"],
    });
    const created = await h.req("POST", "/api/orders", {
      token: a.token,
      body: {
        productname: "Bamboo <Board>",
        asin: "B000000001",
        amazonordernumber: "111-2222222-3333333",
        status: "Received",
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const order = (await created.json()) as { orderid: number };
    h.services.alerts.start();
    h.services.notifications.notify(
      a.userid,
      "information",
      html`Delivered: <strong>${"Bamboo <Board>"}</strong>. <a href="/orders/1/edit">Write the review</a>`,
      {
        event: "delivered",
        orderId: order.orderid,
      },
    );
    expect(fake.requests.length).toBe(0); // queued, not sent inside notify
    const reqs = await fake.received(4);
    await h.services.alerts.idle();
    const by = (p: string) => reqs.find((r) => r.path === p);
    expect(by("/")?.json).toEqual({
      topic: "grapes",
      title: "Delivered",
      message: "Delivered: Bamboo <Board>.",
      priority: 3,
      tags: ["house"],
      click: `http://grapevine.local:3000/orders/${order.orderid}/edit`,
    });
    const json = by("/hook/json")?.json as AlertWebhookJson;
    expect(json).toMatchObject({
      event: "delivered",
      title: "Delivered",
      message: "Delivered: Bamboo <Board>.",
      url: `http://grapevine.local:3000/orders/${order.orderid}/edit`,
      order: { number: "111-2222222-3333333", product: "Bamboo <Board>", status: "Received" },
    });
    expect(Number.isNaN(Date.parse(json.sentAt))).toBe(false);
    expect(by("/hook/discord")?.json).toMatchObject({
      content: "Delivered",
      embeds: [
        {
          title: "Bamboo <Board>",
          description: "Delivered: Bamboo <Board>.",
          fields: [
            { name: "Order", value: "111-2222222-3333333" },
            { name: "Status", value: "Received" },
          ],
        },
      ],
    });
    expect(by("/hook/slack")?.json).toMatchObject({
      text: "Delivered: Delivered: Bamboo &lt;Board&gt;.",
      blocks: [
        {
          type: "section",
          text: { type: "mrkdwn", text: "*Delivered*\nDelivered: Bamboo &lt;Board&gt;." },
        },
        {
          type: "context",
          elements: [
            {
              type: "mrkdwn",
              text: `<http://grapevine.local:3000/orders/${order.orderid}/edit|Open in Grapevine>`,
            },
          ],
        },
      ],
    });
    expect(by("/hook/other")).toBeUndefined();
    expect(outbox(h).every((r) => r.status === "sent")).toBe(true);
    // A notification without an event kind is the bell's only.
    h.services.notifications.notify(a.userid, "information", html`Just for the bell`);
    await settle(h);
    expect(fake.requests.length).toBe(4);
  });

  test("mail that creates an order sends a New order alert (a tagged caller, end to end)", async () => {
    const h = harness();
    const a = await h.register();
    await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/mail`,
      format: "json",
      events: ["new_order", "shipped"],
    });
    h.services.alerts.start();
    const fixture = (name: string) =>
      fs.readFileSync(path.join(import.meta.dir, "../fixtures/mail", name));
    const ordered = await h.services.mailIngest.ingest(
      a.userid,
      fixture("us-ordered-2025-vine.eml"),
    );
    expect(ordered.outcome).toBe("created");
    const [first] = await fake.received(1);
    expect(first?.json).toMatchObject({ event: "new_order", title: "New order" });
    expect((first?.json as AlertWebhookJson | undefined)?.message).toMatch(
      /^1 new order from your mail: /,
    );
  });

  test("Mark Approved / Mark Rejected reach the channels that chose review decisions (not the bell)", async () => {
    const h = harness();
    const a = await h.register();
    await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/decided`,
      format: "json",
      events: ["review_decided"],
    });
    h.services.alerts.start();
    const created = await h.req("POST", "/api/orders", {
      token: a.token,
      body: { productname: "Ceramic Mug", asin: "B0DECIDED1", status: "Review Submitted" },
    });
    const { orderid } = (await created.json()) as { orderid: number };
    const put = (status: string) =>
      h.req("PUT", `/api/orders/${orderid}`, { token: a.token, body: { status } });
    expect((await put("Review Approved")).status).toBe(200);
    const [first] = await fake.received(1);
    expect(first?.json).toMatchObject({
      event: "review_decided",
      title: "Review approved / rejected",
      message: "Review approved: Ceramic Mug",
      order: { product: "Ceramic Mug", status: "Review Approved" },
    });
    // Saving the order again without a new decision sends nothing more; a rejection does.
    expect((await put("Review Approved")).status).toBe(200);
    expect((await put("Review Rejected")).status).toBe(200);
    const [, second] = await fake.received(2);
    expect((second?.json as AlertWebhookJson | undefined)?.message).toBe(
      "Review rejected: Ceramic Mug",
    );
    await settle(h);
    expect(fake.requests.length).toBe(2);
    // The user made the move: nothing in the bell.
    const bell = await h.req("GET", "/api/notifications", { token: a.token });
    expect(JSON.stringify(await bell.json())).not.toContain("Ceramic Mug");
  });

  test("500 and a hang are retried later, 429 waits for its Retry-After, 404 is not retried", async () => {
    const h = harness();
    const a = await h.register();
    await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/r`,
      format: "json",
      events: ["shipped"],
    });
    h.services.alerts.start();
    fake.script("/hook/r", { status: 500 }, "hang", {
      status: 429,
      headers: { "retry-after": "600" },
    });
    h.services.notifications.notify(a.userid, "information", html`Shipped`, { event: "shipped" });
    await fake.received(1);
    await h.services.alerts.idle();
    expect(outbox(h)[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      next: "2026-03-10T12:01:00.000Z",
    });
    expect(outbox(h)[0]?.result).toBe(
      "The webhook answered 500 (an error on its side); trying again",
    );

    clock = new Date("2026-03-10T12:01:00Z");
    await settle(h);
    expect(fake.requests.length).toBe(2);
    expect(outbox(h)[0]).toMatchObject({
      status: "pending",
      attempts: 2,
      next: "2026-03-10T12:03:00.000Z",
    });
    expect(outbox(h)[0]?.result).toMatch(/had no answer within 2 seconds\); trying again/);

    clock = new Date("2026-03-10T12:03:00Z");
    await settle(h);
    expect(outbox(h)[0]).toMatchObject({
      status: "pending",
      attempts: 3,
      next: "2026-03-10T12:13:00.000Z",
    });
    clock = new Date("2026-03-10T12:12:59Z");
    await settle(h);
    expect(fake.requests.length).toBe(3); // not before Retry-After
    clock = new Date("2026-03-10T12:13:00Z");
    await settle(h);
    expect(fake.requests.length).toBe(4);
    expect(outbox(h)[0]).toMatchObject({
      status: "sent",
      attempts: 4,
      result: "The webhook answered 200",
    });

    fake.script("/hook/r", { status: 404 });
    h.services.notifications.notify(a.userid, "information", html`Shipped again`, {
      event: "shipped",
    });
    await fake.received(5);
    await h.services.alerts.idle();
    clock = new Date("2026-03-11T12:00:00Z");
    await settle(h);
    expect(fake.requests.length).toBe(5);
    expect(outbox(h)[1]).toMatchObject({
      status: "failed",
      attempts: 1,
      result: "The webhook answered 404 (nothing there: check the address)",
    });
  });

  test("a channel failing for a day is paused, and the user is told in the bell", async () => {
    const h = harness();
    const a = await h.register();
    const ch = await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/p`,
      format: "json",
      events: ["shipped"],
    });
    h.services.alerts.start();
    fake.script("/hook/p", { status: 400 }, { status: 400 });
    h.services.notifications.notify(a.userid, "information", html`One`, { event: "shipped" });
    await fake.received(1);
    await h.services.alerts.idle();
    clock = new Date("2026-03-11T12:00:01Z");
    h.services.notifications.notify(a.userid, "information", html`Two`, { event: "shipped" });
    await fake.received(2);
    await h.services.alerts.idle();
    const [listed] = (await (
      await h.req("GET", "/api/user/alert-channels", { token: a.token })
    ).json()) as AlertChannel[];
    expect(listed?.paused?.reason).toBe(
      "No alert could be delivered for a day; the last answer was: The webhook answered 400 (it did not accept the alert)",
    );
    const bell = (await (await h.req("GET", "/api/notifications", { token: a.token })).json()) as {
      message: string;
      level: string;
    }[];
    expect(bell[0]?.message).toContain("Alerts to <strong>Webhook: 127.0.0.1");
    expect(bell[0]?.message).toContain("are paused");
    // Paused: nothing new is queued; saving it enabled resumes it.
    h.services.notifications.notify(a.userid, "information", html`Three`, { event: "shipped" });
    await settle(h);
    expect(fake.requests.length).toBe(2);
    const resumed = (await (
      await h.req("PUT", `/api/user/alert-channels/${ch.id}`, {
        token: a.token,
        body: { enabled: true },
      })
    ).json()) as AlertChannel;
    expect(resumed.paused).toBeNull();
    h.services.notifications.notify(a.userid, "information", html`Four`, { event: "shipped" });
    await fake.received(3);
  });

  test("each delivery's result carries its text (id and values) beside the English, for the reader's language", async () => {
    const h = harness();
    const a = await h.register();
    h.db.$client.run("UPDATE users SET language = 'de' WHERE id = ?", [a.userid]);
    const ch = await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/t`,
      format: "json",
      events: ["shipped"],
    });
    h.services.alerts.start();
    fake.script("/hook/t", { status: 500 }, { status: 502 }, { status: 404 }, { status: 400 });
    h.services.notifications.notify(a.userid, "information", html`One`, { event: "shipped" });
    await fake.received(1);
    await h.services.alerts.idle();
    const listed = async () =>
      (
        (await (
          await h.req("GET", "/api/user/alert-channels", { token: a.token })
        ).json()) as AlertChannel[]
      ).find((c) => c.id === ch.id) as AlertChannel;
    const answered = (status: number, reason: string) => ({
      code: "alerts.server.answered",
      values: { who: "webhook", status, reason },
    });
    expect((await listed()).deliveries[0]).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      event: "shipped",
      status: "pending",
      result: "The webhook answered 500 (an error on its side); trying again",
      resultCode: "alerts.server.tryingAgain",
      resultValues: { result: [answered(500, "serverError")] },
      attempts: 1,
    });
    // A second 5xx waits again; a 404 is not tried again: its answer alone.
    clock = new Date("2026-03-10T12:01:00Z");
    await settle(h);
    expect((await listed()).deliveries[0]).toMatchObject({
      status: "pending",
      resultValues: { result: [answered(502, "serverError")] },
    });
    clock = new Date("2026-03-10T12:03:00Z");
    await settle(h);
    expect((await listed()).deliveries[0]).toMatchObject({
      status: "failed",
      attempts: 3,
      result: "The webhook answered 404 (nothing there: check the address)",
      resultCode: "alerts.server.answered",
      resultValues: { who: "webhook", status: 404, reason: "missing" },
    });

    // A day of failures pauses it: the reason, and the bell in the user's language.
    clock = new Date("2026-03-11T12:00:01Z");
    h.services.notifications.notify(a.userid, "information", html`Two`, { event: "shipped" });
    await fake.received(4);
    await h.services.alerts.idle();
    const paused = await listed();
    expect(paused.paused).toEqual({
      at: "2026-03-11T12:00:01.000Z",
      reason:
        "No alert could be delivered for a day; the last answer was: The webhook answered 400 (it did not accept the alert)",
      reasonCode: "alerts.server.failedForADay",
      reasonValues: { answer: [answered(400, "refused")] },
    });
    expect(paused.deliveries[0]).toMatchObject({
      result: "The webhook answered 400 (it did not accept the alert)",
      resultCode: "alerts.server.answered",
    });
    const bell = (await (await h.req("GET", "/api/notifications", { token: a.token })).json()) as {
      message: string;
    }[];
    expect(bell[0]?.message).toContain(
      "die letzte Antwort war: Der Webhook antwortete 400 (die Benachrichtigung wurde nicht angenommen).",
    );
    // What waits for a paused channel is not sent, and says why.
    h.db.$client.run(
      "INSERT INTO alert_outbox (channel_id, event, title, message, next_attempt_at) VALUES (?, 'shipped', 'x', 'y', ?)",
      [ch.id, "2026-03-11T12:00:01.000Z"],
    );
    await settle(h);
    expect((await listed()).deliveries[0]).toMatchObject({
      status: "failed",
      result: "Not sent: the channel is paused",
      resultCode: "alerts.server.notSentPaused",
    });
    // A row from before texts keeps its English words, with no code.
    h.db.$client.run("UPDATE alert_outbox SET result_content = NULL WHERE channel_id = ?", [ch.id]);
    const old = (await listed()).deliveries[0];
    expect(old?.result).toBe("Not sent: the channel is paused");
    expect(old && "resultCode" in old).toBe(false);
  });

  test("quiet hours hold alerts and send one summary when they end (in the user's zone)", async () => {
    const h = harness();
    const a = await h.register();
    h.db.$client.run("UPDATE users SET timezone = 'America/New_York' WHERE id = ?", [a.userid]);
    await addChannel(h, a.token, {
      type: "ntfy",
      serverUrl: fake.url,
      topic: "night",
      events: ["new_order", "review_overdue"],
      quietHours: { start: "22:00", end: "07:00" },
    });
    clock = new Date("2026-03-11T03:30:00Z"); // 23:30 in New York (EDT from March 8)
    h.services.alerts.start();
    h.services.notifications.notify(a.userid, "information", html`1 new order: Lamp`, {
      event: "new_order",
    });
    h.services.notifications.notify(a.userid, "critical", html`Review overdue: Mug`, {
      event: "review_overdue",
    });
    await settle(h);
    expect(fake.requests.length).toBe(0);
    expect(outbox(h).map((r) => [r.quiet, r.next])).toEqual([
      [1, "2026-03-11T11:00:00.000Z"],
      [1, "2026-03-11T11:00:00.000Z"],
    ]);
    clock = new Date("2026-03-11T11:00:00Z");
    await settle(h);
    expect(fake.requests.length).toBe(1);
    expect(fake.requests[0]?.json).toMatchObject({
      topic: "night",
      title: "2 alerts during quiet hours",
      message: "• New order: 1 new order: Lamp\n• Review overdue: Review overdue: Mug",
      priority: 4,
    });
    expect(outbox(h).map((r) => r.status)).toEqual(["sent", "sent"]);
  });

  test("alerts waiting in the outbox go out after a restart", async () => {
    const h = harness();
    const a = await h.register();
    await addChannel(h, a.token, {
      type: "webhook",
      url: `${fake.url}/hook/restart`,
      format: "json",
      events: ["new_order"],
    });
    // The sender is not started: the process "dies" with the alert queued.
    h.services.notifications.notify(a.userid, "information", html`1 new order`, {
      event: "new_order",
    });
    expect(outbox(h).map((r) => r.status)).toEqual(["pending"]);
    closeDatabase(h.db);
    await h.logger.close();
    open.splice(open.indexOf(h), 1);

    const again = harness({ DATA_DIR: h.config.dataDir });
    again.services.alerts.start();
    const [req] = await fake.received(1);
    expect(req?.path).toBe("/hook/restart");
    expect((req?.json as AlertWebhookJson | undefined)?.message).toBe("1 new order");
    await again.services.alerts.idle();
    expect(outbox(again).map((r) => r.status)).toEqual(["sent"]);
    fs.rmSync(h.config.dataDir, { recursive: true, force: true });
  });
});

test("the VAPID subject is a contact Apple's push service accepts", () => {
  expect(vapidSubject("https://vine.example.org", "mailto:a@b.example")).toBe(
    "https://vine.example.org",
  );
  expect(vapidSubject("https://localhost:3000", "mailto:push@example.net")).toBe(
    "mailto:push@example.net",
  );
  expect(vapidSubject("http://vine.example.org", null)).toBe("mailto:grapevine@example.com");
  expect(vapidSubject(null, null)).toBe("mailto:grapevine@example.com");
});

describe("Web Push", () => {
  /** The push payload, decrypted with the subscription's keys (RFC 8291, aes128gcm). */
  const decryptPush = (
    body: Uint8Array | undefined,
    sub: { ecdh: crypto.ECDH; auth: string },
  ): unknown =>
    JSON.parse(
      ece
        .decrypt(Buffer.from(body ?? new Uint8Array()), {
          version: "aes128gcm",
          privateKey: sub.ecdh,
          authSecret: sub.auth,
        })
        .toString("utf8"),
    );

  function subscription(id: string) {
    const ecdh = crypto.createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = crypto.randomBytes(16).toString("base64url");
    return {
      ecdh,
      auth,
      body: {
        endpoint: `${fake.url}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey("base64url"), auth },
      },
    };
  }

  test("one channel per device, VAPID signed, payload encrypted for the subscription (aes128gcm)", async () => {
    const h = harness();
    const a = await h.register();
    const key = (await (
      await h.req("GET", "/api/user/alert-channels/webpush-key", { token: a.token })
    ).json()) as { publicKey: string };
    expect(Buffer.from(key.publicKey, "base64url").length).toBe(65);
    expect(
      await (await h.req("GET", "/api/user/alert-channels/webpush-key", { token: a.token })).json(),
    ).toEqual(key);
    const stored = JSON.stringify(h.db.$client.query("SELECT value FROM server_keys").all());
    expect(stored).toContain(key.publicKey);
    expect(stored).toContain("v1:"); // the private half is encrypted

    const sub = subscription("dev1");
    const first = await addChannel(h, a.token, {
      type: "webpush",
      subscription: sub.body,
      deviceName: "Pixel",
      events: ["delivered"],
    });
    expect(first.webpush).toEqual({ service: new URL(fake.url).host, deviceName: "Pixel" });
    const again = await h.req("POST", "/api/user/alert-channels", {
      token: a.token,
      body: { type: "webpush", subscription: sub.body, events: ["shipped"] },
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as AlertChannel).id).toBe(first.id);

    h.services.alerts.start();
    h.services.notifications.notify(a.userid, "information", html`Shipped: Lamp`, {
      event: "shipped",
      orderId: 99,
    });
    const [req] = await fake.received(1);
    expect(req?.path).toBe("/push/dev1");
    expect(req?.headers["content-encoding"]).toBe("aes128gcm");
    expect(req?.headers.ttl).toBe("86400");
    expect(req?.headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${key.publicKey}$`),
    );
    const jwt = /t=([\w-]+)\.([\w-]+)\./.exec(req?.headers.authorization ?? "");
    const claims = JSON.parse(Buffer.from(jwt?.[2] ?? "", "base64url").toString("utf8")) as {
      aud: string;
      sub: string;
    };
    // Never an account's email: PUBLIC_URL here is not a public https address and no
    // WEB_PUSH_CONTACT is set, so the placeholder; aud is the push service.
    expect(claims).toMatchObject({ aud: fake.url, sub: "mailto:grapevine@example.com" });
    const plain = decryptPush(req?.body, sub);
    expect(plain).toEqual({
      title: "Shipped",
      body: "Shipped: Lamp",
      url: "/",
      tag: "shipped",
    });

    // A long message is cut so the push stays within the 4 KB a push message may hold.
    h.services.notifications.notify(a.userid, "information", html`${"x".repeat(5000)}`, {
      event: "shipped",
    });
    const long = (await fake.received(2))[1];
    expect(long?.answered).toBe(201);
    const longBody = decryptPush(long?.body, sub);
    expect((longBody as { body: string }).body).toBe(`${"x".repeat(999)}…`);

    // The push service says the subscription is gone: the channel is paused with that reason.
    fake.script("/push/dev1", { status: 410 });
    h.services.notifications.notify(a.userid, "information", html`Shipped: Mug`, {
      event: "shipped",
    });
    await fake.received(3);
    await h.services.alerts.idle();
    const [listed] = (await (
      await h.req("GET", "/api/user/alert-channels", { token: a.token })
    ).json()) as AlertChannel[];
    expect(listed?.paused?.reason).toBe(
      "The push service answered 410: this device's push subscription has ended; enable push on the device again",
    );
  });
});

test("secrets never reach the log", async () => {
  const h = harness({ LOG_LEVEL: "trace" });
  const a = await h.register();
  const ch = await addChannel(h, a.token, {
    type: "webhook",
    url: `${fake.url}/hook/SECRET-PATH-123`,
    format: "json",
    events: ["shipped"],
  });
  const n = await addChannel(h, a.token, {
    type: "ntfy",
    serverUrl: fake.url,
    topic: "SECRETTOPIC",
    token: "SECRET-TOKEN-456",
    events: ["shipped"],
  });
  h.services.alerts.start();
  await h.req("POST", `/api/user/alert-channels/${ch.id}/test`, { token: a.token });
  await h.req("POST", `/api/user/alert-channels/${n.id}/test`, { token: a.token });
  h.services.notifications.notify(a.userid, "information", html`Shipped`, { event: "shipped" });
  await fake.received(4);
  await h.services.alerts.idle();
  await h.logger.close();
  const logs = fs
    .readdirSync(h.config.logDir)
    .map((f) => fs.readFileSync(path.join(h.config.logDir, f), "utf8"))
    .join("");
  expect(logs).toContain("alerts: delivery");
  for (const secret of ["SECRET-PATH-123", "SECRETTOPIC", "SECRET-TOKEN-456"])
    expect(logs).not.toContain(secret);
});
