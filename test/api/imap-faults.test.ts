/**
 * Gmail's faults against the real app: a TCP proxy in front of the
 * real Dovecot (test/support/imap-fault-proxy.ts) stalls, cuts and refuses connections, or plays
 * a tiny scripted IMAP server answering LOGIN the way Gmail refuses it. What is asserted is what a
 * user sees: the connect answer, the mailbox status, the account kept or expired, orders once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import tls from "node:tls";
import { MAIL_MESSAGE_MAX_BYTES } from "../../src/features/mailbox/ingest.service.ts";
import { APP_PASSWORD_REFUSED } from "../../src/features/mailbox/mailbox.service.ts";
import { REFUSAL_WAIT_MS } from "../../src/mail/imap/client.ts";

/** Gmail's web-login refusal in our words (locales/en.json mailbox.server.webLogin). */
const WEB_LOGIN_REQUIRED =
  "Gmail wants this account to sign in on the web first. Open https://mail.google.com in a browser, sign in with this account and follow the steps there; Grapevine tries again by itself.";

import { DEFAULT_TIMINGS } from "../../src/mail/imap/supervisor.ts";
import { type FakeAlerts, startFakeAlerts } from "../support/fake-alerts.ts";
import { type FaultProxy, startFaultProxy } from "../support/imap-fault-proxy.ts";
import {
  connectedUser as connected,
  dovecotSuite,
  holdingTimers,
  mailUsers,
  ordersOf,
  mailboxStatus as status,
  TEST_TIMINGS as TIMINGS,
  vineOrder,
} from "../support/imap-suite.ts";
import { selfSignedCert } from "../support/self-signed.ts";
import { waitFor } from "../support/wait.ts";
import type { ErrorBody } from "./helpers.ts";

const suite = dovecotSuite({ users: mailUsers(["ada", "bea", "cy", "dee", "ed", "fox", "guy"]) });
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy({ host: suite.dc.host, port: suite.dc.port });
}, 15_000);
afterAll(async () => {
  await proxy?.close();
}, 15_000);
afterEach(() => {
  proxy.pass();
});

/** The app pointed at the proxy (Gmail's endpoint), with short supervisor timings. */
function harness(timings: Record<string, number> = {}, env: Record<string, string> = {}) {
  return suite.harness({
    env: { GMAIL_IMAP_HOST: "127.0.0.1", GMAIL_IMAP_PORT: String(proxy.port), ...env },
    mailbox: timings ? { timings: { ...TIMINGS, ...timings } } : {},
  });
}

describe("a temporary refusal is not a wrong password", () => {
  const cases = [
    {
      reply: "NO [ALERT] Too many simultaneous connections. (Failure)",
      says: "too many mail programs connected at once",
      retryAfter: REFUSAL_WAIT_MS.tooManyConnections / 1000,
    },
    {
      reply:
        "NO [WEBALERT https://accounts.google.com/signin/continue?sarp=1&scc=1] Web login required.",
      says: WEB_LOGIN_REQUIRED,
      retryAfter: REFUSAL_WAIT_MS.webLogin / 1000,
    },
    {
      reply: "NO [THROTTLED] Too many login attempts, slow down",
      says: "throttled",
      retryAfter: REFUSAL_WAIT_MS.throttled / 1000,
    },
    {
      reply: "NO [ALERT] Account exceeded command or bandwidth limits. (Failure)",
      says: "daily IMAP allowance",
      retryAfter: REFUSAL_WAIT_MS.bandwidth / 1000,
    },
    {
      reply: "NO [UNAVAILABLE] Temporary System Problem. Try again later (Failure)",
      says: "temporarily unavailable",
      retryAfter: null,
    },
  ];

  test("connecting while Gmail refuses for now: 503 with the refusal in words, nothing stored", async () => {
    const hh = harness();
    const u = await hh.register();
    for (const c of cases) {
      proxy.script(c.reply);
      const res = await hh.connect(u.token, "ada@example.test");
      const body = (await res.json()) as ErrorBody;
      expect({ reply: c.reply, status: res.status }).toEqual({ reply: c.reply, status: 503 });
      expect(body.error).toContain(c.says);
      expect(body.error).not.toBe(APP_PASSWORD_REFUSED);
      expect(res.headers.get("retry-after")).toBe(c.retryAfter ? String(c.retryAfter) : null);
      expect(hh.services.mailbox.emailSettings(u.userid)).toBeNull();
    }
    // A real credential rejection is still "check your password", 400.
    proxy.script("NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)");
    const bad = await hh.connect(u.token, "ada@example.test");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error).toBe(APP_PASSWORD_REFUSED);
    expect(proxy.logins()).toBeGreaterThanOrEqual(cases.length + 1);
  }, 20_000);

  test("a connected mailbox refused for hours keeps its credentials, says why and when it tries next, and comes back", async () => {
    // Waits of a minute or more are held, never run: the supervisor parked on one cannot log in
    // again until it is woken, so the login count below is final.
    const hold = holdingTimers(60_000);
    const hh = suite.harness({
      env: { GMAIL_IMAP_HOST: "127.0.0.1", GMAIL_IMAP_PORT: String(proxy.port) },
      mailbox: { timings: TIMINGS, timers: hold.timers },
    });
    const u = await connected(hh, "bea@example.test");

    proxy.script("NO [ALERT] Account exceeded command or bandwidth limits. (Failure)");
    proxy.drop();
    const s = await waitFor(async () => {
      const st = await status(hh, u.token);
      return st.lastError?.includes("daily IMAP allowance") ? st : null;
    }, "the refusal on the status");
    expect(s.status).toBe("disconnected");
    // In English words for API clients, and as a catalog id with Gmail's own words as a value
    // for a reader in another language.
    expect(s.lastError).toBe(
      "Gmail paused this account's mail downloads: it has used its daily IMAP allowance. Grapevine tries again in a few hours.",
    );
    expect(s.lastErrorCode).toBe("mailbox.server.bandwidth");
    expect(s.lastErrorValues).toEqual({
      reason: "Account exceeded command or bandwidth limits. (Failure)",
    });
    expect(s.reconnecting).toBe(true);
    // Hours, not seconds: the next try is about 3 hours away.
    const wait = Date.parse(s.nextAttemptTime ?? "") - Date.now();
    expect(wait).toBeGreaterThan(REFUSAL_WAIT_MS.bandwidth - 60_000);
    expect(wait).toBeLessThanOrEqual(REFUSAL_WAIT_MS.bandwidth);
    // Not expired: the account stays connected, no critical notification, no retry storm.
    expect(hh.services.mailbox.emailSettings(u.userid)).toMatchObject({ isConnected: true });
    expect(hh.services.notifications.list(u.userid).some((n) => n.level === "critical")).toBe(
      false,
    );
    const logins = proxy.logins();
    await waitFor(
      () => hold.held().some((ms) => ms > REFUSAL_WAIT_MS.bandwidth - 60_000),
      "the supervisor waiting hours for its next try",
    );
    expect(proxy.logins()).toBe(logins);

    // Gmail lets us in again; the user reconnects (or the next try comes): mail is read once.
    const during = vineOrder("Refused Meanwhile");
    await suite.dc.append("bea@example.test", during.raw);
    proxy.pass();
    const res = await hh.req("POST", "/api/imap/reconnect/manual", { token: u.token });
    expect(res.status).toBe(200);
    await waitFor(async () => (await status(hh, u.token)).status === "idle", "IDLE again");
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the order");
    const after = await status(hh, u.token);
    expect(after).toMatchObject({
      reconnecting: false,
      nextAttemptTime: null,
      lastError: null,
      lastErrorCode: null,
    });
    expect(hh.ingested.filter((i) => i.messageId === during.messageId).length).toBe(1);
  }, 20_000);

  test("a real credential rejection while connected still expires the mailbox", async () => {
    const hh = harness();
    const u = await connected(hh, "cy@example.test");
    proxy.script("NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)");
    proxy.drop();
    await waitFor(
      () => hh.services.mailbox.emailSettings(u.userid)?.isConnected === false,
      "expired",
    );
    const st = await status(hh, u.token);
    expect(st).toMatchObject({
      status: "disconnected",
      reconnecting: false,
      nextAttemptTime: null,
    });
    expect(hh.services.notifications.list(u.userid).some((n) => n.level === "critical")).toBe(true);
  }, 20_000);
});

describe("a stalled connection is noticed", () => {
  test("the defaults notice a stall and reconnect within 2 minutes, and renew IDLE before Gmail's 29", () => {
    // A stall is noticed after at most two command timeouts (the liveness NOOP, then its answer).
    const worst = 2 * DEFAULT_TIMINGS.commandTimeoutMs + DEFAULT_TIMINGS.backoffBaseMs;
    expect(worst).toBeLessThan(120_000);
    expect(DEFAULT_TIMINGS.idleRestartMs).toBeLessThan(29 * 60_000);
    expect(DEFAULT_TIMINGS.backoffMaxMs).toBeLessThanOrEqual(60_000);
  });

  test("the server stops answering mid-IDLE: status says reconnecting, a new connection reads the mail that came, once", async () => {
    const hh = harness({ commandTimeoutMs: 400 });
    const u = await connected(hh, "dee@example.test");
    await suite.dc.append("dee@example.test", vineOrder("Before The Stall").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the first order");
    // Back in IDLE after reading it (the stall is to hit IDLE, not the read).
    await waitFor(async () => (await status(hh, u.token)).status === "idle", "IDLE");

    // The open connection goes silent; new connections are refused for now.
    proxy.refuse();
    proxy.stall();
    const during = vineOrder("During The Stall");
    await suite.dc.append("dee@example.test", during.raw);
    // Noticed after about two command timeouts (0.8 s here), not the 30-minute socket timeout:
    // the wait below would run out long before that.
    const s = await waitFor(
      async () => {
        const st = await status(hh, u.token);
        return st.reconnecting ? st : null;
      },
      "reconnecting",
      20_000,
    );
    expect(s.status).not.toBe("idle");
    expect(s.lastError).toBeTruthy();

    proxy.pass();
    await waitFor(() => ordersOf(hh, u.userid).length === 2, "the order sent during the stall");
    await waitFor(async () => (await status(hh, u.token)).status === "idle", "IDLE again");
    expect((await status(hh, u.token)).reconnecting).toBe(false);
    await suite.dc.append("dee@example.test", vineOrder("After The Stall").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 3, "the order after the stall");
    expect(hh.ingested.filter((i) => i.messageId === during.messageId).length).toBe(1);
  }, 60_000);

  test("a healthy idle connection is kept: the liveness check does not reconnect", async () => {
    let idles = 0;
    const hh = suite.harness({
      env: { GMAIL_IMAP_HOST: "127.0.0.1", GMAIL_IMAP_PORT: String(proxy.port) },
      mailbox: {
        timings: { ...TIMINGS, commandTimeoutMs: 300 },
        startIdle: (_u, c) => {
          idles++;
          return c.idle();
        },
      },
    });
    const u = await connected(hh, "ed@example.test");
    const before = proxy.connections();
    const idlesBefore = idles;
    // Several liveness rounds pass (IDLE silent → NOOP → IDLE again); a reconnect in any of them
    // would open its connection before the next round's IDLE.
    await waitFor(() => idles >= idlesBefore + 4, "four liveness rounds");
    expect(proxy.connections()).toBe(before);
    const st = await status(hh, u.token);
    expect(st).toMatchObject({ status: "idle", reconnecting: false });
    await suite.dc.append("ed@example.test", vineOrder("Still Watching").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the order");
  }, 15_000);
});

describe("connection errors in words, as server-side faults", () => {
  test("unknown host name: 502 'Could not find …'", async () => {
    const hh = harness({}, { GMAIL_IMAP_HOST: "no-such-host.invalid" });
    const u = await hh.register();
    const res = await hh.connect(u.token, "fox@example.test");
    expect(res.status).toBe(502);
    // The reason is also its text, so the web app says it in the reader's language.
    expect((await res.json()) as ErrorBody).toMatchObject({
      error: "Could not find no-such-host.invalid: no such server name, or DNS is not answering.",
      code: "mail_server_unreachable",
      values: {
        reason:
          "Could not find no-such-host.invalid: no such server name, or DNS is not answering.",
      },
      texts: {
        reason: { code: "mailbox.server.notFound", values: { host: "no-such-host.invalid" } },
      },
    });
  }, 20_000);

  test("nothing listening: 502 'refused the connection'", async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const hh = harness({}, { GMAIL_IMAP_PORT: String(port) });
    const u = await hh.register();
    const res = await hh.connect(u.token, "fox@example.test");
    expect(res.status).toBe(502);
    expect(((await res.json()) as ErrorBody).error).toBe(
      `127.0.0.1:${port} refused the connection: no mail server is listening there.`,
    );
  }, 20_000);

  test("a certificate nobody vouches for: 502 in words, not OpenSSL's text", async () => {
    const { key, cert } = selfSignedCert();
    const server = tls.createServer(
      {
        key,
        cert,
      },
      (s) => {
        s.on("error", () => {});
        s.write("* OK ready\r\n");
      },
    );
    server.on("tlsClientError", () => {});
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const hh = harness(
        {},
        {
          GMAIL_IMAP_HOST: "localhost",
          GMAIL_IMAP_PORT: String(port),
          GMAIL_IMAP_TLS: "true",
        },
      );
      const u = await hh.register();
      const res = await hh.connect(u.token, "fox@example.test");
      expect(res.status).toBe(502);
      expect(((await res.json()) as ErrorBody).error).toBe(
        "The server's certificate for localhost is not signed by a trusted authority.",
      );
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 20_000);
});

describe("one huge message cannot balloon memory", () => {
  test("a message over the cap is skipped by its RFC822.SIZE, never fetched; the mail around it is read", async () => {
    const hh = harness({}, {});
    const u = await connected(hh, "guy@example.test");
    const before = vineOrder("Before The Big One");
    const big = vineOrder("Huge Attachment");
    const after = vineOrder("After The Big One");
    const line = `${"QUJD".repeat(19)}\r\n`;
    const bigRaw = `${big.raw}\r\n${line.repeat(Math.ceil((MAIL_MESSAGE_MAX_BYTES + 4096) / line.length))}`;
    await suite.dc.append("guy@example.test", before.raw);
    await suite.dc.append("guy@example.test", bigRaw);
    await suite.dc.append("guy@example.test", after.raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 2, "the two small orders");
    expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual([
      "Before The Big One",
      "After The Big One",
    ]);
    expect(hh.ingested.some((i) => i.messageId === big.messageId)).toBe(false);
    expect(hh.skippedUnread).toEqual(["too-large"]);
    // Not tried again at the next pass: the folder position is past it.
    await suite.dc.append("guy@example.test", vineOrder("Later").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 3, "the later order");
    expect(hh.skippedUnread).toEqual(["too-large"]);
  }, 30_000);
});

describe("the admin hears of a mailbox supervisor failing for a long time", () => {
  let fake: FakeAlerts;
  beforeAll(() => {
    fake = startFakeAlerts();
  });
  afterAll(() => fake.stop());

  test("30 minutes of failed attempts: one critical notice and one alert to the admin; again only after it healed and failed again", async () => {
    // The outage watch's clock is the test's; the supervisor's backoff runs in real time.
    let clock = Date.parse("2026-03-10T12:00:00Z");
    const hh = suite.harness({
      env: {
        GMAIL_IMAP_HOST: "127.0.0.1",
        GMAIL_IMAP_PORT: String(proxy.port),
        // The fake ntfy server is on 127.0.0.1.
        ALERTS_ALLOW_LOOPBACK: "true",
      },
      mailbox: { timings: TIMINGS, now: () => new Date(clock) },
    });
    const admin = await hh.register(); // user 1
    const res = await hh.req("POST", "/api/user/alert-channels", {
      token: admin.token,
      body: {
        type: "ntfy",
        serverUrl: fake.url,
        topic: "grapevine-admin",
        events: ["mailbox_supervisor_failing"],
      },
    });
    expect(res.status).toBe(201);
    const u = await connected(hh, "guy@example.test");
    const notices = () =>
      hh.services.notifications
        .list(admin.userid)
        .filter((n) => n.message.includes("mailbox monitor of user"));
    const failedAttempts = async (n: number) => {
      const start = proxy.connections();
      await waitFor(() => proxy.connections() >= start + n, `${n} failed attempts`);
    };

    // Gmail unreachable: attempt after attempt fails, but a short outage tells nobody.
    proxy.refuse();
    proxy.drop();
    await waitFor(async () => (await status(hh, u.token)).reconnecting, "reconnecting");
    await failedAttempts(2);
    clock += 29 * 60_000;
    await failedAttempts(2);
    expect(notices()).toHaveLength(0);

    // Past 30 minutes: the next failed attempt tells the admin, once.
    clock += 2 * 60_000;
    await waitFor(() => notices().length === 1, "the admin's notice");
    await failedAttempts(3);
    clock += 60 * 60_000;
    await failedAttempts(2);
    expect(notices()).toHaveLength(1);
    const [n] = notices();
    expect(n!.level).toBe("critical");
    expect(n!.message).toContain("guy@example.test");
    expect(n!.message).toContain("for 31 minutes");
    // The user themselves is not told of a server problem.
    expect(
      hh.services.notifications.list(u.userid).filter((x) => x.message.includes("monitor")),
    ).toHaveLength(0);
    // It reached the admin's channel that chose the event (the sender runs as in main.ts).
    hh.services.alerts.start();
    await hh.services.alerts.idle();
    await hh.services.alerts.stop();
    const sent = fake.requests.filter((r) => r.path === "/");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.json).toMatchObject({
      topic: "grapevine-admin",
      title: "Mailbox supervisor failing",
    });

    // Healed: back to IDLE. A new outage is a new count.
    proxy.pass();
    await waitFor(async () => (await status(hh, u.token)).status === "idle", "IDLE again");
    proxy.refuse();
    proxy.drop();
    await failedAttempts(2);
    clock += 10 * 60_000;
    await failedAttempts(2);
    expect(notices()).toHaveLength(1);
    clock += 25 * 60_000;
    await waitFor(() => notices().length === 2, "a second notice for the second outage");
  }, 30_000);
});
