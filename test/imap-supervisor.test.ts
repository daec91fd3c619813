/**
 * The mailbox supervisor against a real Dovecot (test/support/dovecot.ts): real-time IDLE, the
 * polling fallback and the retry to real time, the server going down and up, UIDVALIDITY changes,
 * and isolation between users. Mail goes through the real ingestion pipeline; assertions look at
 * the orders, the ledger and the live events, never at a browser request.
 */
import { describe, expect, test } from "bun:test";
import type { ImapFlow } from "imapflow";
import type { LiveEvent } from "../src/contract/index.ts";
import { plainMail } from "./api/mail-messages.ts";
import {
  connectedUser as connected,
  dovecotSuite,
  holdingTimers,
  mailUsers,
  ordersOf,
  mailboxStatus as status,
  TEST_TIMINGS,
  vineOrder,
} from "./support/imap-suite.ts";
import { waitFor } from "./support/wait.ts";

const suite = dovecotSuite({
  users: mailUsers(["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ida", "jon"]),
});

describe("real-time monitoring (IDLE)", () => {
  test("a message appended while idling becomes an order with no request from the browser", async () => {
    const hh = suite.harness();
    const u = await connected(hh, "ann@example.test");
    const events: LiveEvent[] = hh.watchEvents(u.userid);

    const mail = vineOrder("Bamboo Cutting Board Set");
    await suite.dc.append("ann@example.test", mail.raw);
    // Someone else's mail in the same folder is never fetched (server-side search).
    await suite.dc.append(
      "ann@example.test",
      plainMail({ from: "friend@example.org", subject: "Lunch?", messageId: "lunch@x" }),
    );

    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the order");
    expect(ordersOf(hh, u.userid)[0]!.productname).toBe("Bamboo Cutting Board Set");
    expect(ordersOf(hh, u.userid)[0]!.amazonordernumber).toBe(mail.order);
    await waitFor(() => events.some((e) => e.table === "order"), "an order event");
    expect(hh.ingested.map((i) => i.messageId)).not.toContain("lunch@x");
    expect((await status(hh, u.token)).status).toBe("idle");
    expect((await status(hh, u.token)).emailsScanned).toBe(1);
  }, 15_000);

  test("IDLE is restarted on its timer and mail keeps arriving", async () => {
    let idles = 0;
    const hh = suite.harness({
      mailbox: {
        timings: {
          idleRestartMs: 150,
          pollIntervalMs: 60_000,
          backoffBaseMs: 100,
          backoffMaxMs: 800,
          stopGraceMs: 3000,
        },
        startIdle: (_u, c: ImapFlow) => {
          idles++;
          return c.idle();
        },
      },
    });
    const u = await connected(hh, "ben@example.test");
    await waitFor(() => idles >= 4, "several IDLE restarts");
    await suite.dc.append("ben@example.test", vineOrder("Silicone Spatula").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the order");
    expect((await status(hh, u.token)).status).toBe("idle");
  }, 15_000);
});

describe("polling fallback", () => {
  test("IDLE failing → polling picks up mail; retry to real time spends the budget and goes back to IDLE", async () => {
    let idleWorks = false;
    const hh = suite.harness({
      mailbox: {
        startIdle: async (_u, c: ImapFlow) => (idleWorks ? c.idle() : false),
      },
    });
    const u = await hh.register();
    const events = hh.watchEvents(u.userid);
    expect((await hh.connect(u.token, "cat@example.test")).status).toBe(200);
    const polling = await waitFor(async () => {
      const s = await status(hh, u.token);
      return s.status === "polling" ? s : null;
    }, "polling");
    expect(polling.idleRetry).toMatchObject({
      available: true,
      buttonState: "enabled",
      remainingAttempts: { window: 3, daily: 20 },
    });
    expect(polling.manualReconnect.buttonState).toBe("hidden");
    expect(polling.lastError).toContain("every 5 minutes");

    await suite.dc.append("cat@example.test", vineOrder("Garden Hose Nozzle").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the poll to find the order");
    expect((await status(hh, u.token)).status).toBe("polling");

    // Still failing: the retry is spent and the mailbox stays in polling.
    let res = await hh.req("POST", "/api/imap/retry-idle", { token: u.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: "Retrying real-time monitoring" });
    await waitFor(async () => {
      const s = await status(hh, u.token);
      return s.status === "polling" && s.idleRetry.remainingAttempts.window === 2;
    }, "polling again with one attempt spent");
    expect(events.some((e) => e.type === "mailbox-attempts.updated")).toBe(true);

    idleWorks = true;
    res = await hh.req("POST", "/api/imap/retry-idle", { token: u.token });
    expect(res.status).toBe(200);
    await waitFor(async () => (await status(hh, u.token)).status === "idle", "back to IDLE");
    const s = await status(hh, u.token);
    expect(s.idleRetry).toMatchObject({
      buttonState: "hidden",
      remainingAttempts: { window: 1, daily: 18 },
    });
    await suite.dc.append("cat@example.test", vineOrder("Kitchen Timer").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 2, "real-time delivery again");
  }, 15_000);
});

describe("the server goes away", () => {
  test("Dovecot stopped mid-IDLE and started again: reconnects; mail that came meanwhile is processed once", async () => {
    const hh = suite.harness();
    const u = await connected(hh, "dan@example.test");
    const events = hh.watchEvents(u.userid);
    const scans = () => events.filter((e) => e.type === "mailbox.scanned").length;
    await suite.dc.append("dan@example.test", vineOrder("Before The Outage").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the first order");

    await suite.dc.down();
    const down = await waitFor(async () => {
      const s = await status(hh, u.token);
      return s.status === "disconnected" ? s : null;
    }, "disconnected");
    expect(down.lastError).toBeTruthy();
    expect(down.manualReconnect).toMatchObject({ available: true, buttonState: "enabled" });

    const during = vineOrder("During The Outage");
    suite.dc.deliver("dan@example.test", during.raw);
    // Another reconnect attempt fails meanwhile (it plans a new next attempt).
    await waitFor(async () => {
      const s = await status(hh, u.token);
      return s.nextAttemptTime !== null && s.nextAttemptTime !== down.nextAttemptTime;
    }, "a failed reconnect attempt");
    await suite.dc.up();

    await waitFor(async () => (await status(hh, u.token)).status === "idle", "IDLE again", 8000);
    await waitFor(() => ordersOf(hh, u.userid).length === 2, "the order delivered while down");
    const scansBefore = scans();
    await suite.dc.append("dan@example.test", vineOrder("After The Outage").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 3, "the order after the outage");
    // The pass that read it has ended (its scan summary is out): a read of the earlier message
    // again in that pass, however late in it, is counted below.
    await waitFor(() => scans() > scansBefore, "the end of that pass");
    const seen = hh.ingested.filter((i) => i.messageId === during.messageId);
    expect(seen.length).toBe(1);
    expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual([
      "Before The Outage",
      "During The Outage",
      "After The Outage",
    ]);
  }, 20_000);

  test("a UIDVALIDITY change re-reads recent Amazon mail; the ledger keeps orders single", async () => {
    const hh = suite.harness();
    const u = await connected(hh, "eve@example.test");
    await suite.dc.append("eve@example.test", vineOrder("Desk Lamp").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the order");
    const before = hh.ingested.length;

    hh.db.$client
      .query("UPDATE mail_folder_state SET uid_validity = uid_validity + 1000 WHERE user_id = ?")
      .run(u.userid);
    await hh.services.mailbox.manager.stop(u.userid);
    hh.services.mailbox.manager.start(u.userid);
    await waitFor(() => hh.ingested.length > before, "the folder read again");
    await waitFor(async () => (await status(hh, u.token)).status === "idle", "IDLE");
    expect(ordersOf(hh, u.userid).length).toBe(1);
    const row = hh.db.$client
      .query("SELECT COUNT(*) AS n FROM processed_messages WHERE user_id = ?")
      .get(u.userid) as { n: number };
    expect(row.n).toBe(1);
  }, 15_000);
});

describe("isolation", () => {
  test("one user's refused password and failing ingest never touch another user's supervisor", async () => {
    const hh = suite.harness();
    const a = await connected(hh, "fay@example.test");
    const b = await connected(hh, "gus@example.test");

    // A's ingest throws (a bug for one user): A retries, B goes on.
    hh.setIngestHook(({ userId }) => {
      if (userId === a.userid) throw new Error("boom for user A");
    });
    await suite.dc.append("fay@example.test", vineOrder("A Broken One").raw);
    await suite.dc.append("gus@example.test", vineOrder("B First").raw);
    await waitFor(() => ordersOf(hh, b.userid).length === 1, "B's order");
    await waitFor(() => hh.ingested.some((i) => i.userId === a.userid), "A's attempt");
    expect(ordersOf(hh, a.userid).length).toBe(0);
    hh.setIngestHook(null);

    // A's app password is revoked; the next login of A is refused.
    await suite.dc.setPassword("fay@example.test", "revoked-now");
    const aEvents = hh.watchEvents(a.userid);
    // The connection in place stays up; the next login (as after a restart) is refused.
    await hh.services.mailbox.manager.stop(a.userid);
    hh.services.mailbox.manager.start(a.userid);
    const sa = await waitFor(async () => {
      const s = await status(hh, a.token);
      return s.status === "disconnected" && s.lastError?.includes("refused") ? s : null;
    }, "A refused");
    expect(sa.manualReconnect.buttonState).toBe("hidden");
    const data = (await (await hh.req("GET", "/api/user/data", { token: a.token })).json()) as {
      emailSettings: { isConnected: boolean; accessToken: string | null };
    };
    expect(data.emailSettings).toMatchObject({ isConnected: false, accessToken: null });
    const notes = hh.services.notifications.list(a.userid);
    expect(notes.some((n) => n.level === "critical" && n.message.includes("refused"))).toBe(true);
    expect(aEvents.some((e) => e.type === "mailbox.disconnected")).toBe(true);

    // B never noticed.
    expect((await status(hh, b.token)).status).toBe("idle");
    await suite.dc.append("gus@example.test", vineOrder("B Second").raw);
    await waitFor(() => ordersOf(hh, b.userid).length === 2, "B's second order");
  }, 20_000);

  test("stopping a supervisor waits for the message in hand, then logs out", async () => {
    // stop()'s grace wait (3 s here) is held: while it is, stop() can only end with the message.
    const hold = holdingTimers(TEST_TIMINGS.stopGraceMs);
    const hh = suite.harness({ mailbox: { timings: TEST_TIMINGS, timers: hold.timers } });
    const u = await connected(hh, "hal@example.test");
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    hh.setIngestHook(() => gate);
    await suite.dc.append("hal@example.test", vineOrder("Slow Committer").raw);
    await waitFor(() => hh.ingested.length === 1, "the ingest to start");
    let stopped = false;
    const stopping = hh.services.mailbox.manager.stop(u.userid).then(() => {
      stopped = true;
    });
    await waitFor(
      () => hold.held().includes(TEST_TIMINGS.stopGraceMs),
      "stop() waiting for the message in hand",
    );
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(hh.ingested[0]!.outcome).toBe("created");
    expect(ordersOf(hh, u.userid).length).toBe(1);
    expect((await status(hh, u.token)).status).toBe("disconnected");
  }, 15_000);
});
