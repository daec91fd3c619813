/**
 * The mailbox supervisor: one per connected user, watching the selected folder.
 *
 * States (docs/behaviour.md#data, docs/behaviour.md#states-and-transitions Mailbox status):
 *   connecting  → a connection attempt is under way
 *   connected   → logged in, folder open, catching up on mail that came while we were away
 *   idle        → real-time monitoring with IMAP IDLE (restarted every `idleRestartMs`, ~20 min)
 *                 and checked every `commandTimeoutMs` (30 s): broken, a NOOP answered in time, or
 *                 the connection is given up and a new one made (a stall noticed within 60 s)
 *   polling     → IDLE failed: the folder is checked every `pollIntervalMs` (5 min) until the
 *                 user retries real-time monitoring (retryIdle) or the next reconnect
 *   disconnected→ waiting for the next automatic attempt (src/lib/backoff.ts: at most 60 s for a
 *                 network fault, longer only when the server asked, e.g. THROTTLED or Gmail's
 *                 daily bandwidth limit; `nextAttemptTime`, `reconnecting`), or stopped after the
 *                 server refused the credentials (then only a new connect helps)
 *
 * Every pass over new mail goes through `sync`: collect the UIDs of Amazon's messages above the
 * last UID we saw (tracked with UIDVALIDITY in mail_folder_state), then fetch them in bounded
 * batches (one FETCH per batch), ingest each, and only after the ingest resolved (orders
 * committed) mark \Seen and move.
 *
 * Isolation: the loop catches everything; a throw in one user's supervisor only reconnects that
 * supervisor. A closed imapflow client is never reused: each attempt builds a new one.
 */
import type { ImapFlow } from "imapflow";
import pTimeout from "p-timeout";
import type { MailboxState } from "../../contract/index.ts";
import { atLeast, backoffDelay } from "../../lib/backoff.ts";
import { storageFault } from "../../lib/errors.ts";
import { createGcPacer, edenCollect } from "../../lib/gc-pacer.ts";
import type { Logger } from "../../log.ts";
import {
  classifyImapError,
  closeImap,
  fetchSizes,
  fetchSources,
  ImapError,
  searchAmazonUids,
} from "./client.ts";

// ---------------------------------------------------------------------------------------------
// The ingestion service as the supervisor sees it (implemented in src/features/mailbox/ingest.*;
// injected, never imported: src/mail/ does not depend on src/features/).

/** One message's outcome, as much of it as the supervisor reads. */
export type IngestResult = { outcome: "created" | "updated" | "unchanged" | "skipped" };
/** What the supervisor uses of the ingestion service (a batch in, committed when it resolves). */
export type MailIngestPort<S = unknown> = {
  beginScan(userId: number, source: "imap" | "backfill"): S;
  ingestMany(
    userId: number,
    raws: Uint8Array[],
    opts: { scan: S },
  ): Promise<{ results: IngestResult[]; failed: { index: number; error: unknown } | null }>;
  endScan(scan: S): unknown;
  /** Counts a message that was not read at all (too large) in the scan's summary. */
  countSkipped(scan: S, reason: "too-large"): void;
};

/** How much the supervisor fetches at once (one ingest batch), and the largest message it reads. */
export type FetchLimits = {
  /** Messages per FETCH (one ingest batch). */
  batchMax: number;
  /** Bytes of sources (RFC822.SIZE) held in memory at once. */
  batchMaxBytes: number;
  /** A message larger than this (RFC822.SIZE) is never fetched: counted skipped "too-large". */
  messageMaxBytes: number;
};

/** What the supervisor needs to know about the user's folder settings. */
export type MailSettings = {
  selectedFolder: string;
  processedFolder: string | null;
  markProcessedAsRead: boolean;
};

export type FolderState = { uidValidity: number; lastUid: number; updatedAt: string };
export type FolderStateStore = {
  get(userId: number, folder: string): FolderState | null;
  set(userId: number, folder: string, uidValidity: number, lastUid: number): void;
};

// ---------------------------------------------------------------------------------------------
// In batches: fetch up to `batchMax` sources with one FETCH (bounded by `batchMaxBytes`; both are
// the ingestion service's batch, injected as FetchLimits) → ingest them (one transaction) → \Seen
// and move the batch's order mail. A message above `messageMaxBytes` is never fetched.
/**
 * A full collection after every this many bytes of fetched mail (src/lib/gc-pacer.ts): a backfill's
 * parsed messages are short-lived and pile up faster than the collector reclaims them. Backfill of
 * 5,000 Amazon messages (bench/backfill.bench.ts): peak RSS 193 MB without, 184 MB at 32 MB, 172 MB
 * at 8 MB, for about 5% of its speed; 163 MB at 2 MB, for 10%. With the eden collections below,
 * 4 MB: 144 MB. With every message parsed by mailparser (src/mail/mime.ts gone): peak
 * 212 MB without any pacing, 155 MB with it (4 MB), 145 MB at 2 MB (speed not measurable then:
 * the machine was loaded); kept because the benchmark shows it is needed.
 */
const BACKFILL_GC_EVERY_BYTES = 4 * 1024 * 1024;
/*
 * …and an eden (young-generation) collection after every batch that has no full one. Nearly
 * everything a batch allocates (the sources, mailparser's buffers and strings, the reader's
 * documents) is garbage once it is ingested; an eden collection reclaims it before the heap grows
 * to make room for more, for far less than a full collection costs. Same benchmark: peak RSS
 * 168-169 MB with full collections every 8 MB alone; 147-152 MB with eden collections too; 144 MB
 * with full ones every 4 MB and eden ones, no slower (the eden ones leave the full ones less to
 * do). Eden collections after every message instead (every 256 KB) did worse (154 MB): the peak
 * is reached while a batch is fetched and ingested.
 */

/** Marks and moves messages whose orders are committed. Connection loss propagates. */
async function afterCommit(
  client: ImapFlow,
  uids: readonly number[],
  settings: Pick<MailSettings, "markProcessedAsRead" | "processedFolder">,
  log: Logger,
) {
  const range = uids.join(",");
  if (settings.markProcessedAsRead) {
    try {
      await client.messageFlagsAdd(range, ["\\Seen"], { uid: true });
    } catch (err) {
      if (!client.usable) throw err;
      log.warn({ uids, err: (err as Error).message }, "could not mark processed messages as read");
    }
  }
  if (settings.processedFolder) {
    let moved: unknown = false;
    try {
      moved = await client.messageMove(range, settings.processedFolder, { uid: true });
    } catch (err) {
      if (!client.usable) throw err;
      log.warn({ uids, err: (err as Error).message }, "could not move processed messages");
      return;
    }
    if (!moved) {
      log.warn(
        { uids, folder: settings.processedFolder },
        "the server refused to move processed messages",
      );
    }
  }
}

/** fetchSources, sent ahead: a failure is seen where the sources are awaited, never unhandled. */
function prefetchSources(client: ImapFlow, uids: readonly number[]) {
  const p = fetchSources(client, uids);
  p.catch(() => undefined);
  return p;
}

/** Sizes (RFC822.SIZE) are asked for this many UIDs at once (× batchMax), then split. */
const SIZE_CHUNK_BATCHES = 10;

/** Splits ascending UIDs into fetch batches by count and by bytes (gone UIDs count 0 bytes). */
function fetchBatches(
  uids: readonly number[],
  sizes: ReadonlyMap<number, number>,
  limits: FetchLimits,
): number[][] {
  const batches: number[][] = [];
  let batch: number[] = [];
  let bytes = 0;
  for (const uid of uids) {
    const size = sizes.get(uid) ?? 0;
    // A message larger than the cap on its own still goes, alone.
    if (
      batch.length > 0 &&
      (batch.length >= limits.batchMax || bytes + size > limits.batchMaxBytes)
    ) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(uid);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export type ProcessUidsResult = {
  done: number;
  /** The message whose ingest threw (processing stopped there), or null. */
  failed: { uid: number; error: unknown } | null;
};

/**
 * Processes UIDs of the selected folder in order. Stops at the first message whose ingest throws
 * (so nothing after it is counted as done) and when `shouldStop` says so. Only messages whose
 * outcome is created/updated/unchanged are marked and moved; skipped ones are left alone.
 *
 * Sources are fetched in batches (one FETCH each, collected into memory before any other command:
 * imapflow must not be sent a command inside a fetch loop), the next batch's while this one is
 * ingested. A batch is ingested with `ingestMany` (every message read, then all committed in one
 * transaction, each in its own savepoint; the same outcome as one by one); only after that are
 * the batch's order messages marked \Seen / moved with one command each, and only then is
 * `onDone` called for them, in UID order — so a UID is never reported done (and never skipped at
 * the next pass) before its mark and move went out. When processing stops early, what was
 * ingested so far is still marked and moved.
 */
export async function processUids<S>(opts: {
  client: ImapFlow;
  userId: number;
  uids: readonly number[];
  ingest: MailIngestPort<S>;
  scan: S;
  limits: FetchLimits;
  settings: Pick<MailSettings, "markProcessedAsRead" | "processedFolder">;
  log: Logger;
  shouldStop: () => boolean;
  onDone: (uid: number, result: IngestResult | null) => void;
}): Promise<ProcessUidsResult> {
  const { limits } = opts;
  const sizeChunk = SIZE_CHUNK_BATCHES * limits.batchMax;
  let done = 0;
  const paceFull = createGcPacer(BACKFILL_GC_EVERY_BYTES);
  // The next batch's FETCH is sent before this batch is ingested, so the server's and the
  // network's time overlaps ours (against Gmail a round trip is tens of milliseconds, one per
  // batch). imapflow queues commands: the mark and move of a batch go out after that FETCH.
  let inFlight: Promise<Map<number, Buffer>> | null = null;
  const tooLarge = new Set<number>();
  const fetchable = (batch: readonly number[]) => batch.filter((uid) => !tooLarge.has(uid));
  try {
    for (let i = 0; i < opts.uids.length; i += sizeChunk) {
      if (opts.shouldStop()) break;
      const chunk = opts.uids.slice(i, i + sizeChunk);
      const sizes = await fetchSizes(opts.client, chunk);
      // Too large to read (RFC822.SIZE, before any body is fetched): counted in the scan and
      // never fetched; in the batches they are like a message deleted since the search (done,
      // nothing ingested), so UIDs are still reported done in order.
      for (const uid of chunk) {
        const size = sizes.get(uid) ?? 0;
        if (size <= limits.messageMaxBytes) continue;
        opts.log.warn(
          { uid, size, max: limits.messageMaxBytes },
          "a message is larger than the cap: skipped without reading it",
        );
        opts.ingest.countSkipped(opts.scan, "too-large");
        sizes.delete(uid);
        tooLarge.add(uid);
      }
      const batches = fetchBatches(chunk, sizes, limits);
      inFlight = prefetchSources(opts.client, fetchable(batches[0] ?? []));
      for (const [j, batch] of batches.entries()) {
        // Sent before the loop for the first batch, in the round before for the others.
        const sources = await inFlight!;
        inFlight = null;
        if (opts.shouldStop()) return { done, failed: null };
        if (j + 1 < batches.length) {
          inFlight = prefetchSources(opts.client, fetchable(batches[j + 1]!));
        }
        const finished: Array<{ uid: number; result: IngestResult | null }> = [];
        const toMark: number[] = [];
        let failed: ProcessUidsResult["failed"] = null;
        // Deleted or moved away since the search: nothing to ingest, done all the same.
        const present = batch.filter((uid) => sources.has(uid));
        const raws = present.map((uid) => sources.get(uid)!);
        sources.clear();
        const { results, failed: bad } =
          raws.length > 0
            ? await opts.ingest.ingestMany(opts.userId, raws, { scan: opts.scan })
            : { results: [], failed: null };
        raws.length = 0;
        // Results come in order and end where an ingest threw: UIDs after it are not done.
        const last = bad ? present[bad.index]! : Number.POSITIVE_INFINITY;
        let next = 0;
        for (const uid of batch) {
          if (uid >= last) break;
          if (present[next] !== uid) {
            finished.push({ uid, result: null });
            continue;
          }
          const result = results[next++]!;
          if (result.outcome !== "skipped") toMark.push(uid);
          finished.push({ uid, result });
        }
        if (bad) {
          opts.log.warn({ uid: last, err: bad.error }, "ingesting a message failed");
          failed = { uid: last, error: bad.error };
        }
        // The batch's sources and everything made from them are garbage now.
        if (!paceFull(batch.reduce((n, uid) => n + (sizes.get(uid) ?? 0), 0))) edenCollect();
        if (toMark.length > 0) await afterCommit(opts.client, toMark, opts.settings, opts.log);
        for (const f of finished) {
          opts.onDone(f.uid, f.result);
          if (f.result) done++;
        }
        if (failed) return { done, failed };
      }
    }
    return { done, failed: null };
  } finally {
    // Never leave a FETCH behind on the connection: whoever uses it next waits for it.
    await inFlight?.catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// A pass over new mail in the open folder.

export type SyncFn = (
  client: ImapFlow,
  settings: MailSettings,
  shouldStop: () => boolean,
) => Promise<void>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Builds the per-user sync. The first time a folder is seen, watching starts at its current end
 * (older mail is for "Process Old Emails"). After a UIDVALIDITY change, the Amazon mail since the
 * day before the last pass is looked at again; the ledger skips what was processed.
 * A message whose ingest keeps failing is given up after `maxFailures` passes (logged).
 */
export function createMailSync<S>(deps: {
  userId: number;
  store: FolderStateStore;
  ingest: MailIngestPort<S>;
  limits: FetchLimits;
  domains: () => readonly string[];
  log: Logger;
  maxFailures?: number;
  now?: () => Date;
}): SyncFn {
  const { userId, store, log } = deps;
  const maxFailures = deps.maxFailures ?? 3;
  const now = deps.now ?? (() => new Date());
  const failures = new Map<string, number>();

  return async (client, settings, shouldStop) => {
    const mb = client.mailbox;
    if (!mb) throw new Error("No folder is open");
    const folder = mb.path;
    const uidValidity = Number(mb.uidValidity);
    const state = store.get(userId, folder);
    if (!state) {
      store.set(userId, folder, uidValidity, Math.max(0, mb.uidNext - 1));
      log.info({ folder }, "watching a new folder from its current end");
      return;
    }
    let uids: number[];
    if (state.uidValidity !== uidValidity) {
      const last = Date.parse(state.updatedAt);
      const since = new Date((Number.isNaN(last) ? now().getTime() - 7 * DAY_MS : last) - DAY_MS);
      log.warn(
        { folder, was: state.uidValidity, now: uidValidity, since: since.toISOString() },
        "UIDVALIDITY changed: looking at recent Amazon mail again",
      );
      uids = await searchAmazonUids(client, deps.domains(), { since });
      store.set(
        userId,
        folder,
        uidValidity,
        uids.length ? uids[0]! - 1 : Math.max(0, mb.uidNext - 1),
      );
    } else {
      uids = await searchAmazonUids(client, deps.domains(), { afterUid: state.lastUid });
    }
    if (uids.length === 0) return;

    const scan = deps.ingest.beginScan(userId, "imap");
    try {
      const res = await processUids({
        client,
        userId,
        uids,
        ingest: deps.ingest,
        scan,
        limits: deps.limits,
        settings,
        log,
        shouldStop,
        onDone: (uid) => store.set(userId, folder, uidValidity, uid),
      });
      // A full disk or a database locked by another process is the server's fault, not the
      // message's: it is tried again at every pass, never given up (that would lose it).
      if (res.failed && !storageFault(res.failed.error)) {
        const key = `${folder}\u0000${uidValidity}\u0000${res.failed.uid}`;
        const n = (failures.get(key) ?? 0) + 1;
        if (n >= maxFailures) {
          failures.delete(key);
          store.set(userId, folder, uidValidity, res.failed.uid);
          log.error(
            { folder, uid: res.failed.uid, attempts: n, err: res.failed.error },
            "a message failed to ingest again and again: it is left in the folder, unprocessed",
          );
        } else {
          failures.set(key, n);
        }
      }
    } finally {
      await deps.ingest.endScan(scan);
    }
  };
}

// ---------------------------------------------------------------------------------------------
// The supervisor.

export type SupervisorTimings = {
  /** IDLE is broken and restarted this often (docs/behaviour.md#mail: 10–25 minutes; Gmail ends it at ~29). */
  idleRestartMs: number;
  /**
   * The connection's inactivity timeout (imapflow's socketTimeout): a command unanswered this
   * long ends the connection. IDLE is checked this often (broken, a NOOP that must be answered
   * within this long). So a stalled server is noticed within 2 × this (60 s by default; the issue
   * asks for a new connection within 2 minutes, bench/imap-faults.bench.ts measures it), and a
   * new connection is made at once.
   */
  commandTimeoutMs: number;
  /** The polling fallback's interval (docs/behaviour.md#constants-and-limits: 5 minutes). */
  pollIntervalMs: number;
  /**
   * Automatic reconnect (src/lib/backoff.ts): base delay, doubled per failed attempt, capped
   * (network faults: 60 s), drawn down by up to 20 % (jitter); longer only when the server asks.
   */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long stop() waits for the current message before closing the connection anyway. */
  stopGraceMs: number;
};

export const DEFAULT_TIMINGS: SupervisorTimings = {
  idleRestartMs: 20 * 60_000,
  commandTimeoutMs: 30_000,
  pollIntervalMs: 5 * 60_000,
  backoffBaseMs: 2_000,
  backoffMaxMs: 60_000,
  stopGraceMs: 5_000,
};

export type SupervisorSnapshot = {
  status: MailboxState;
  /** Why it is not connected (or why real-time monitoring is off), or null. */
  lastError: string | null;
  folder: string | null;
  /** True after IDLE failed on this connection (the retry-to-real-time offer applies). */
  idleFailed: boolean;
  /** False once the supervisor has stopped for good (stop() or refused credentials). */
  running: boolean;
  /** When the next automatic connection attempt is due (ISO), while waiting for one. */
  nextAttemptTime: string | null;
  /** True from a fault until a connection is working again: the status says "reconnecting". */
  reconnecting: boolean;
};

export type SupervisorDeps = {
  userId: number;
  log: Logger;
  timings: SupervisorTimings;
  /** Current settings; null when the mailbox is no longer connected (the supervisor stops). */
  settings: () => MailSettings | null;
  /** A new, logged-in client (fresh credentials every time), with `timings.commandTimeoutMs`. */
  connect: () => Promise<ImapFlow>;
  sync: SyncFn;
  onChange?: (snap: SupervisorSnapshot) => void;
  /** The server refused the credentials: the supervisor has stopped. */
  onAuthFailure?: (err: ImapError) => void;
  /** Test hook: replaces client.idle(); resolve false to make IDLE fail. */
  startIdle?: (client: ImapFlow) => Promise<boolean | undefined>;
  random?: () => number;
};

type WakeReason = "stop" | "restart" | "closed" | "retry-idle" | "exists" | "timer";
const PRIORITY: Record<WakeReason, number> = {
  timer: 0,
  exists: 1,
  "retry-idle": 2,
  closed: 3,
  restart: 4,
  stop: 5,
};

export function createSupervisor(deps: SupervisorDeps) {
  const { log, timings } = deps;
  const random = deps.random ?? Math.random;
  let status: MailboxState = "disconnected";
  let lastError: string | null = null;
  let folder: string | null = null;
  /** The run that may act; a stopped or replaced run sees a different value and ends. */
  let activeRun: number | null = null;
  let runs = 0;
  let loopDone: Promise<void> = Promise.resolve();
  let client: ImapFlow | null = null;
  let wantIdle = true;
  let resetBackoff = false;
  let nextAttemptTime: string | null = null;
  let reconnecting = false;

  let pending: WakeReason | null = null;
  let waiter: ((r: WakeReason) => void) | null = null;

  function snapshot(): SupervisorSnapshot {
    return {
      status,
      lastError,
      folder,
      idleFailed: !wantIdle,
      running: activeRun !== null,
      nextAttemptTime,
      reconnecting,
    };
  }

  function setState(next: MailboxState, error: string | null = null) {
    if (next === status && error === lastError) return;
    status = next;
    lastError = error;
    log.debug({ status, lastError }, "mailbox state");
    try {
      deps.onChange?.(snapshot());
    } catch (err) {
      log.error({ err }, "mailbox state listener failed");
    }
  }

  function wake(reason: WakeReason) {
    if (!pending || PRIORITY[reason] > PRIORITY[pending]) pending = reason;
    const w = waiter;
    if (w) {
      waiter = null;
      const r = pending;
      pending = null;
      w(r);
    }
  }

  /** Waits for a wake-up or `ms` ("timer"); cancel() forgets the wait. */
  function waitWake(ms: number | null): { promise: Promise<WakeReason>; cancel: () => void } {
    if (pending) {
      const r = pending;
      pending = null;
      return { promise: Promise.resolve(r), cancel: () => {} };
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let fn: ((r: WakeReason) => void) | null = null;
    const promise = new Promise<WakeReason>((resolve) => {
      fn = (r) => {
        clearTimeout(timer);
        resolve(r);
      };
      waiter = fn;
      if (ms !== null) {
        timer = setTimeout(() => {
          if (waiter === fn) waiter = null;
          resolve("timer");
        }, ms);
      }
    });
    return {
      promise,
      cancel: () => {
        clearTimeout(timer);
        if (waiter === fn) waiter = null;
      },
    };
  }

  function backoff(attempt: number): number {
    return backoffDelay(
      attempt,
      { baseMs: timings.backoffBaseMs, maxMs: timings.backoffMaxMs, spread: 0.2 },
      random,
    );
  }

  /** One IDLE round; resolves with why it ended. IDLE is broken before this returns. */
  async function idleOnce(c: ImapFlow): Promise<WakeReason | "idle-failed"> {
    // Something came in while we were busy: handle it before going idle.
    if (pending) {
      const r = pending;
      pending = null;
      return r;
    }
    setState("idle");
    const started = Date.now();
    const startIdle = deps.startIdle ?? ((cl: ImapFlow) => cl.idle());
    let settled = false;
    const idleP = Promise.resolve()
      .then(() => startIdle(c))
      .then(
        (r) => (r === false ? ("failed" as const) : ("ended" as const)),
        () => "failed" as const,
      )
      .finally(() => {
        settled = true;
      });
    // IDLE is renewed (with a look for new mail) every idleRestartMs, and in between checked
    // every commandTimeoutMs: broken, a NOOP answered, IDLE again. A server that keeps the
    // connection open but stopped answering is noticed here.
    const renewAt = started + timings.idleRestartMs;
    const w = waitWake(Math.max(0, Math.min(renewAt - Date.now(), timings.commandTimeoutMs)));
    const woke = await Promise.race([idleP, w.promise]);
    if (woke === "failed" || woke === "ended") {
      w.cancel();
      if (!c.usable) return "closed";
      // A long IDLE ended (the server, or imapflow's NOOP after commandTimeoutMs of silence):
      // IDLE again; new mail meanwhile came as "exists". A quick end is a failure.
      const quick = Math.min(1000, timings.commandTimeoutMs / 2);
      if (woke === "ended" && Date.now() - started > quick) return "retry-idle";
      return "idle-failed";
    }
    const first: WakeReason = woke === "timer" && Date.now() < renewAt ? "retry-idle" : woke;
    // Break IDLE before anything else runs: a command makes imapflow send DONE first. IDLE may
    // not have been sent yet (it starts a tick later), so wait for it to be on before breaking it.
    // The server must answer within commandTimeoutMs, or the connection is given up.
    const deadline = Date.now() + timings.commandTimeoutMs;
    while (!settled && c.usable && Date.now() < deadline) {
      if (c.idling) {
        await pTimeout(
          c.noop().catch(() => undefined),
          {
            milliseconds: Math.max(1, deadline - Date.now()),
            message: false,
          },
        );
      } else {
        await Bun.sleep(5);
      }
    }
    if (!settled && c.usable) {
      log.warn(
        { waitedMs: timings.commandTimeoutMs },
        "the mail server stopped answering during IDLE: reconnecting",
      );
      c.close();
      return "closed";
    }
    return first;
  }

  async function session(c: ImapFlow, settings: MailSettings, alive: () => boolean) {
    const onExists = () => wake("exists");
    const onClose = () => wake("closed");
    const breakRequested = () => !alive() || pending === "stop" || pending === "restart";
    c.on("exists", onExists);
    c.on("close", onClose);
    try {
      await c.mailboxOpen(settings.selectedFolder);
      folder = settings.selectedFolder;
      reconnecting = false;
      setState("connected", null);
      await deps.sync(c, settings, breakRequested);
      for (;;) {
        if (!alive()) return;
        let reason: WakeReason;
        if (wantIdle && c.capabilities.has("IDLE")) {
          const r = await idleOnce(c);
          if (r === "idle-failed") {
            wantIdle = false;
            log.warn(
              { everyMs: timings.pollIntervalMs },
              "IDLE failed: checking the folder on a timer instead",
            );
            setState("polling");
            reason = "timer";
          } else {
            reason = r;
          }
        } else {
          setState("polling");
          reason = await waitWake(timings.pollIntervalMs).promise;
        }
        if (!alive() || reason === "stop" || reason === "restart") return;
        if (reason === "closed" || !c.usable) {
          throw new ImapError(
            "network",
            "The mail server stopped answering or closed the connection; reconnecting.",
          );
        }
        if (reason === "retry-idle") continue;
        // New mail, an IDLE restart or a poll: look for new mail.
        if (!(wantIdle && c.capabilities.has("IDLE"))) await c.noop();
        await deps.sync(c, settings, breakRequested);
      }
    } finally {
      c.off("exists", onExists);
      c.off("close", onClose);
    }
  }

  async function loop(run: number) {
    const alive = () => activeRun === run;
    let attempt = 0;
    // A stop meant for the previous run does not apply to this one.
    pending = null;
    while (alive()) {
      let settings: MailSettings | null = null;
      try {
        settings = deps.settings();
      } catch (err) {
        log.error({ err }, "cannot read the mailbox settings");
      }
      if (!settings) {
        log.info("the mailbox is no longer connected: its supervisor stops");
        activeRun = null;
        break;
      }
      // Wake-ups meant for the previous connection do not apply to this one.
      if (pending && PRIORITY[pending] < PRIORITY.restart) pending = null;
      folder = settings.selectedFolder;
      setState("connecting", lastError);
      let c: ImapFlow | null = null;
      try {
        c = await deps.connect();
        if (!alive()) break;
        client = c;
        attempt = 0;
        await session(c, settings, alive);
      } catch (err) {
        if (!alive()) break;
        const e = classifyImapError(err);
        if (e.kind === "auth") {
          log.warn({ err: e.message }, "the mail server refused the login: supervisor stops");
          activeRun = null;
          setState(
            "disconnected",
            "Gmail refused the saved credentials. Connect the mailbox again in Account Settings.",
          );
          try {
            deps.onAuthFailure?.(e);
          } catch (cbErr) {
            log.error({ err: cbErr }, "auth failure handler failed");
          }
          break;
        }
        if (resetBackoff) {
          resetBackoff = false;
          attempt = 0;
        }
        // Network faults: at most backoffMaxMs apart; longer only when the server asked.
        const delay = atLeast(backoff(attempt++), e.retryAfterMs);
        log.warn({ err: e.message, kind: e.kind, retryInMs: delay }, "mailbox connection failed");
        reconnecting = true;
        nextAttemptTime = new Date(Date.now() + delay).toISOString();
        setState("disconnected", e.message);
        const r = await waitWake(delay).promise;
        nextAttemptTime = null;
        if (r === "stop" || !alive()) break;
        if (r === "restart") attempt = 0;
      } finally {
        if (client === c) client = null;
        if (c) await closeImap(c, 2000);
      }
    }
    if (activeRun === run) activeRun = null;
    if (activeRun === null) {
      reconnecting = false;
      nextAttemptTime = null;
      setState("disconnected", lastError);
    }
  }

  function start() {
    if (activeRun !== null) return;
    const run = ++runs;
    activeRun = run;
    wantIdle = true;
    // Runs one after the other: a new run starts once the previous one has closed its connection.
    loopDone = loopDone.then(() =>
      loop(run).catch((err) => {
        // Never reaches another user or the process.
        if (activeRun === run) activeRun = null;
        log.error({ err }, "mailbox supervisor crashed");
        setState("disconnected", "The mailbox monitor stopped unexpectedly. Reconnect to retry.");
      }),
    );
  }

  return {
    userId: deps.userId,
    snapshot,
    /** Starts the loop (no-op when running). */
    start,
    /** Stops for good: waits for the message in progress (up to stopGraceMs), then closes. */
    async stop() {
      activeRun = null;
      wake("stop");
      const done = loopDone;
      const finished = await pTimeout(
        done.then(() => true),
        { milliseconds: timings.stopGraceMs, fallback: () => false },
      );
      if (!finished) {
        client?.close();
        await pTimeout(done, { milliseconds: 1000, message: false });
      }
    },
    /** Manual reconnect: drop the connection (if any) and connect again now. */
    reconnect() {
      if (activeRun === null) {
        lastError = null;
        start();
        return;
      }
      wantIdle = true;
      resetBackoff = true;
      wake("restart");
    },
    /** Back to IDLE after the polling fallback. */
    retryIdle() {
      wantIdle = true;
      wake("retry-idle");
    },
    /** Settings changed (folder): reopen with the new ones. */
    restart() {
      if (activeRun === null) {
        start();
        return;
      }
      wake("restart");
    },
    isRunning: () => activeRun !== null,
  };
}
export type Supervisor = ReturnType<typeof createSupervisor>;
