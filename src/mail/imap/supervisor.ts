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
 *   disconnected→ waiting for the next automatic attempt (src/util/backoff.ts: at most 60 s for a
 *                 network fault, longer only when the server asked, e.g. THROTTLED or Gmail's
 *                 daily bandwidth limit; `nextAttemptTime`, `reconnecting`), or stopped after the
 *                 server refused the credentials (then only a new connect helps)
 *
 * Every pass over new mail goes through `sync` (folder-sync.ts): collect the UIDs of Amazon's
 * messages above the last UID we saw (tracked with UIDVALIDITY in mail_folder_state), then fetch
 * them in bounded batches (fetch-batches.ts: one FETCH per batch), ingest each, and only after the
 * ingest resolved (orders committed) mark \Seen and move.
 *
 * Isolation: the loop catches everything; a throw in one user's supervisor only reconnects that
 * supervisor. A closed imapflow client is never reused: each attempt builds a new one.
 */
import type { ImapFlow } from "imapflow";
import pTimeout from "p-timeout";
import type { MailboxState } from "../../contract/index.ts";
import type { TextPart } from "../../contract/text.ts";
import type { Logger } from "../../log.ts";
import { atLeast, backoffDelay } from "../../util/backoff.ts";
import { classifyImapError, closeImap, type ImapError, imapError } from "./client.ts";
import type { MailSettings, SyncFn } from "./ports.ts";

export type SupervisorTimings = {
  /** IDLE is broken and restarted this often (docs/behaviour.md#mail: 10–25 minutes; Gmail ends it at ~29). */
  idleRestartMs: number;
  /**
   * The connection's inactivity timeout (imapflow's socketTimeout): a command unanswered this
   * long ends the connection. IDLE is checked this often (broken, a NOOP that must be answered
   * within this long). So a stalled server is noticed within 2 × this (60 s by default, well within
   * the 2 minutes a new connection may take; bench/imap-faults.bench.ts measures it), and a
   * new connection is made at once.
   */
  commandTimeoutMs: number;
  /** The polling fallback's interval (docs/behaviour.md#constants-and-limits: 5 minutes). */
  pollIntervalMs: number;
  /**
   * Automatic reconnect (src/util/backoff.ts): base delay, doubled per failed attempt, capped
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
  /** The same as a catalog id and values (src/contract/text.ts), when it is one of ours. */
  lastErrorText: TextPart | null;
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
  /** Test hook: the timers of every timed wait (reconnect, IDLE checks, polls, stop's grace). */
  timers?: SupervisorTimers;
  random?: () => number;
};

export type SupervisorTimers = {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

const realTimers: SupervisorTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
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
  const timers = deps.timers ?? realTimers;
  // p-timeout calls only setTimeout(fn, ms) and clearTimeout(handle) of its customTimers.
  const graceTimers = timers as unknown as {
    setTimeout: typeof setTimeout;
    clearTimeout: typeof clearTimeout;
  };
  let status: MailboxState = "disconnected";
  let lastError: string | null = null;
  let lastErrorText: TextPart | null = null;
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
      lastErrorText,
      folder,
      idleFailed: !wantIdle,
      running: activeRun !== null,
      nextAttemptTime,
      reconnecting,
    };
  }

  const currentError = () =>
    lastError === null ? null : { message: lastError, text: lastErrorText };

  /** The new state and why (an ImapError or one of ours carries its catalog id). */
  function setState(
    next: MailboxState,
    error: { message: string; text: TextPart | null } | null = null,
  ) {
    const words = error?.message ?? null;
    if (next === status && words === lastError) return;
    status = next;
    lastError = words;
    lastErrorText = error?.text ?? null;
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
    let timer: unknown;
    let fn: ((r: WakeReason) => void) | null = null;
    const promise = new Promise<WakeReason>((resolve) => {
      fn = (r) => {
        timers.clearTimeout(timer);
        resolve(r);
      };
      waiter = fn;
      if (ms !== null) {
        timer = timers.setTimeout(() => {
          if (waiter === fn) waiter = null;
          resolve("timer");
        }, ms);
      }
    });
    return {
      promise,
      cancel: () => {
        timers.clearTimeout(timer);
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
          throw imapError("network", "stoppedAnswering");
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
      setState("connecting", currentError());
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
          setState("disconnected", imapError("auth", "credentialsRefused"));
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
        setState("disconnected", e);
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
      setState("disconnected", currentError());
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
        setState("disconnected", imapError("other", "monitorStopped"));
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
        { milliseconds: timings.stopGraceMs, fallback: () => false, customTimers: graceTimers },
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
