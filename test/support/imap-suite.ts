/**
 * The IMAP test files' one setup: a real Dovecot per file (test/support/dovecot.ts), the app wired
 * to it (`createImapHarness`), and what every such file asks of them.
 *
 *   const suite = dovecotSuite({ users: mailUsers(["ann", "ben"]) });
 *   test("…", async () => {
 *     const hh = suite.harness();                 // closed after the test
 *     const u = await connectedUser(hh, "ann@example.test");
 *     await suite.dc.append("ann@example.test", vineOrder("Desk Lamp").raw);
 *     await waitFor(() => ordersOf(hh, u.userid).length === 1, "the order");
 *   });
 *
 * `dovecotSuite` registers the file's hooks: Dovecot starts before the first test and stops after
 * the last; every harness the suite made is closed after each test (and a harness closed by its
 * test is not closed twice).
 */
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import type { LiveEvent, MailboxStatus, Order } from "../../src/contract/index.ts";
import type { MailIngestService } from "../../src/features/mailbox/ingest.service.ts";
import type {
  MailboxIngest,
  MailboxServiceDeps,
} from "../../src/features/mailbox/mailbox.service.ts";
import type { SupervisorTimers } from "../../src/mail/imap/supervisor.ts";
import { amazonMail } from "../api/mail-messages.ts";
import { createHarness, type Harness, type ServiceOverrides } from "../harness.ts";
import { type Dovecot, type DovecotUser, startDovecot } from "./dovecot.ts";
import { waitFor } from "./wait.ts";

/** Test mailboxes `<name>@example.test` with the app password `app-pass-<name>`. */
export const mailUsers = (names: readonly string[]): DovecotUser[] =>
  names.map((n) => ({ user: `${n}@example.test`, pass: `app-pass-${n}` }));

export type ImapHarnessOptions = {
  mailbox?: Partial<MailboxServiceDeps>;
  env?: Record<string, string>;
  /** The mail reader and its version (a reader upgrade). */
  mail?: NonNullable<ServiceOverrides>["mail"];
};

export type ImapSuite = {
  /** This file's Dovecot (started before the first test). */
  readonly dc: Dovecot;
  /** The app wired to `dc` (or to `d`), closed after the test. */
  harness: (opts?: ImapHarnessOptions, d?: Dovecot) => ImapHarness;
};

/** One Dovecot for the file and the harnesses of its tests (see the header). */
export function dovecotSuite(
  start: Parameters<typeof startDovecot>[0] | (() => Parameters<typeof startDovecot>[0]),
  hookMs = 15_000,
): ImapSuite {
  let dc: Dovecot | null = null;
  const open = new Set<ImapHarness>();
  const closeAll = async () => {
    const list = [...open];
    open.clear();
    for (const hh of list) await hh.close();
  };
  beforeAll(async () => {
    dc = await startDovecot(typeof start === "function" ? start() : start);
  }, hookMs);
  afterEach(closeAll, hookMs);
  afterAll(async () => {
    await closeAll();
    await dc?.stop();
  }, hookMs);
  const started = (): Dovecot => {
    if (!dc) throw new Error("Dovecot is not started: use the suite inside a test");
    return dc;
  };
  return {
    get dc() {
      return started();
    },
    harness(opts = {}, d = started()) {
      const hh = createImapHarness(d, opts);
      const close = hh.close;
      hh.close = async () => {
        if (!open.delete(hh)) return;
        await close();
      };
      open.add(hh);
      return hh;
    },
  };
}

let seq = 0;
/**
 * A Vine order confirmation ($0.00, one item) with an order number, ASIN and Message-ID of its own
 * (`auth`: the Authentication-Results line, null for none; mail-messages.ts's default otherwise).
 */
export function vineOrder(name: string, opts: { auth?: string | null } = {}) {
  seq++;
  const order = `114-${String(seq).padStart(7, "0")}-${String(seq * 3).padStart(7, "0")}`;
  const messageId = `m-${order}@amazon.test`;
  return {
    order,
    messageId,
    raw: amazonMail({
      kind: "ordered",
      order,
      items: [{ name, asin: `B1${String(seq).padStart(8, "0")}`, price: "0.00" }],
      total: "0.00",
      messageId,
      ...(opts.auth !== undefined ? { auth: opts.auth } : {}),
    }),
  };
}

/** GET /api/imap/status as the user (must answer 200). */
export async function mailboxStatus(hh: ImapHarness, token: string): Promise<MailboxStatus> {
  const res = await hh.req("GET", "/api/imap/status", { token });
  expect(res.status).toBe(200);
  return (await res.json()) as MailboxStatus;
}

/** Every order of the user, oldest first. */
export const ordersOf = (hh: ImapHarness, userId: number): Order[] =>
  hh.services.orders.list(userId, { status: "all", q: "", sort: "oldest", limit: 500, offset: 0 })
    .orders;

/** A new user whose mailbox `mailUser` is connected and idling. */
export async function connectedUser(hh: ImapHarness, mailUser: string) {
  const u = await hh.register();
  const res = await hh.connect(u.token, mailUser);
  expect(res.status).toBe(200);
  await waitFor(async () => (await mailboxStatus(hh, u.token)).status === "idle", "IDLE");
  return u;
}

// The app wired to a test Dovecot: like test/harness.ts, plus Gmail's IMAP endpoint pointed at
// Dovecot, short supervisor timers, and the real ingestion pipeline
// (the real reader too) behind a hook that can slow down or fail chosen messages.

export type IngestHook = (info: { userId: number; raw: string }) => Promise<void> | void;

export type ImapHarness = Harness & {
  dc: Dovecot;
  /** Messages counted skipped without being read (over the size cap), by reason. */
  skippedUnread: string[];
  /** Every message handed to ingest: user, Message-ID, outcome (null when it threw). */
  ingested: Array<{ userId: number; messageId: string | null; outcome: string | null }>;
  /** Runs before each ingest; throw to make the ingest fail, await to make it slow. */
  setIngestHook: (hook: IngestHook | null) => void;
  /** Events published for a user, from the moment of this call. */
  watchEvents: (userId: number) => LiveEvent[];
  /** Connects a registered user's mailbox with an app password through the API. */
  connect: (token: string, user: string, pass?: string) => Promise<Response>;
};

/**
 * Supervisor timers that hold every wait of `minMs` or more instead of running it (shorter ones
 * run as usual). A supervisor parked on a held wait does nothing more until it is woken (a manual
 * reconnect, stop), so what a test counts at that point is final, not a count at some moment.
 */
export function holdingTimers(minMs: number) {
  type Held = { ms: number; live: boolean };
  const held: Held[] = [];
  const timers: SupervisorTimers = {
    setTimeout(fn, ms) {
      if (ms < minMs) return setTimeout(fn, ms);
      const h: Held = { ms, live: true };
      held.push(h);
      return h;
    },
    clearTimeout(handle) {
      if (held.includes(handle as Held)) (handle as Held).live = false;
      else clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
  };
  /** The held waits not cleared, in ms. */
  return { timers, held: () => held.filter((h) => h.live).map((h) => h.ms) };
}

export const TEST_TIMINGS = {
  idleRestartMs: 60_000,
  pollIntervalMs: 300,
  backoffBaseMs: 100,
  backoffMaxMs: 800,
  stopGraceMs: 3_000,
};

export function createImapHarness(dc: Dovecot, opts: ImapHarnessOptions = {}): ImapHarness {
  let hook: IngestHook | null = null;
  const ingested: ImapHarness["ingested"] = [];
  const skippedUnread: string[] = [];
  let real: MailIngestService | null = null;
  const target = () => {
    if (!real) throw new Error("ingest used before the harness was built");
    return real;
  };
  const ingest: MailboxIngest = {
    beginScan: (userId, source) => target().beginScan(userId, source),
    endScan: (scan) => target().endScan(scan),
    stats: (userId) => target().stats(userId),
    takeMailboxReread: (userId) => target().takeMailboxReread(userId),
    countSkipped: (scan, reason) => {
      skippedUnread.push(reason);
      target().countSkipped(scan, reason);
    },
    // Each message is recorded and given to the hook in turn; one the hook fails ends the batch
    // there, as if its ingest had thrown (those before it are committed).
    async ingestMany(userId, raws, o) {
      const entries: ImapHarness["ingested"] = [];
      let hookFailed: { index: number; error: unknown } | null = null;
      for (const raw of raws) {
        const text = typeof raw === "string" ? raw : new TextDecoder().decode(raw);
        const messageId = /^Message-ID:\s*<([^>]+)>/im.exec(text)?.[1] ?? null;
        const entry = { userId, messageId, outcome: null as string | null };
        ingested.push(entry);
        try {
          if (hook) await hook({ userId, raw: text });
        } catch (error) {
          hookFailed = { index: entries.length, error };
          break;
        }
        entries.push(entry);
      }
      const r = await target().ingestMany(userId, raws.slice(0, entries.length), o);
      r.results.forEach((res, i) => {
        entries[i]!.outcome = res.outcome;
      });
      return r.failed ? r : { results: r.results, failed: hookFailed };
    },
  };

  // The API harness, pointed at this Dovecot, with the recording ingest port and short timings.
  const h = createHarness(
    {
      GMAIL_IMAP_HOST: dc.host,
      GMAIL_IMAP_PORT: String(dc.port),
      GMAIL_IMAP_TLS: "false",
      ...opts.env,
    },
    {
      mailbox: {
        ingest,
        timings: TEST_TIMINGS,
        backfillRetry: { attempts: 2, delayMs: 50 },
        ...opts.mailbox,
      },
      ...(opts.mail ? { mail: opts.mail } : {}),
    },
  );
  real = h.services.mailIngest;

  return {
    ...h,
    dc,
    ingested,
    skippedUnread,
    setIngestHook: (fn) => {
      hook = fn;
    },
    watchEvents(userId) {
      const list: LiveEvent[] = [];
      h.services.events.subscribe(userId, (e) => list.push(e));
      return list;
    },
    connect: (token, user, pass) =>
      h.req("POST", "/api/imap/app-password", {
        token,
        body: { email: user, appPassword: pass ?? dc.users().find((u) => u.user === user)?.pass },
      }),
  };
}
