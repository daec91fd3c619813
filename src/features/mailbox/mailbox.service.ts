/**
 * The user's mailbox: connecting Gmail (app password now; OAuth reuses `connectFor`), the status
 * of its supervisor, folders, "Process Old Emails" backfills and Disconnect (spec §4, §7, §8).
 *
 * Reading mail goes through the ingestion service (`ingest`): everything a message changes is
 * committed when `ingest` resolves, and only then is the message marked read or moved.
 *
 * Live events: supervisor state changes and backfill progress go out as "IMAP"; budget changes of
 * manual reconnect / retry real-time as "MANUAL_RECONNECT"; settings as "user".
 */
import type { ImapFlow } from "imapflow";
import type {
  EmailSettings,
  MailboxAction,
  MailboxStatus,
  MailFolder,
} from "../../contract/index.ts";
import type { MailboxAccountRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { atLeast, backoffDelay } from "../../lib/backoff.ts";
import { AppError, badRequest, conflict, notFound } from "../../lib/errors.ts";
import { SecretError, type Secrets } from "../../lib/secrets.ts";
import type { Logger } from "../../log.ts";
import { AMAZON_SENDER_DOMAINS } from "../../mail/amazon/senders.ts";
import {
  classifyImapError,
  closeImap,
  connectImap,
  type ImapAuth,
  type ImapEndpoint,
  ImapError,
  listFolders,
  searchAmazonUids,
} from "../../mail/imap/client.ts";
import {
  type AttemptLimiter,
  type AttemptLimits,
  createAttemptLimiter,
  createMailboxManager,
  DEFAULT_ATTEMPT_LIMITS,
} from "../../mail/imap/manager.ts";
import {
  createMailSync,
  createSupervisor,
  DEFAULT_TIMINGS,
  type FetchLimits,
  type MailIngestPort,
  type MailSettings,
  processUids,
  type SupervisorTimings,
} from "../../mail/imap/supervisor.ts";
import { html } from "../notifications/html.ts";
import type { NotificationsService } from "../notifications/notifications.service.ts";
import {
  INGEST_BATCH_MAX,
  INGEST_BATCH_MAX_BYTES,
  MAIL_MESSAGE_MAX_BYTES,
  type MailIngestService,
  type Scan,
} from "./ingest.service.ts";
import type { MailboxRepo } from "./mailbox.repo.ts";

/** What the mailbox uses of the ingestion service. */
export type MailboxIngest = MailIngestPort<Scan> & Pick<MailIngestService, "stats">;

/** The supervisor's and the backfill's FETCH: one ingest batch; the per-message cap. */
export const FETCH_LIMITS: FetchLimits = {
  batchMax: INGEST_BATCH_MAX,
  batchMaxBytes: INGEST_BATCH_MAX_BYTES,
  messageMaxBytes: MAIL_MESSAGE_MAX_BYTES,
};

export const APP_PASSWORD_REFUSED =
  "Gmail refused this address and app password. Check both and try again.";
const NOT_CONNECTED = "No mailbox is connected. Connect your Gmail account first.";
const EXPIRED =
  "Gmail refused the saved credentials. Connect your Gmail account again in Account Settings.";
const FOLDER_REFRESH_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A backfill persists its progress (done_through_uid) after this many messages. */
const BACKFILL_PROGRESS_EVERY = 50;

export type MailboxServiceDeps = {
  repo: MailboxRepo;
  secrets: Secrets;
  events: EventBus;
  notifications: Pick<NotificationsService, "notify">;
  ingest: MailboxIngest;
  /** Gmail's IMAP endpoint (config GMAIL_IMAP_*). */
  endpoint: ImapEndpoint;
  log: Logger;
  senderDomains?: readonly string[];
  timings?: Partial<SupervisorTimings>;
  /** Budgets of manual reconnect and retry real-time (each its own). */
  limits?: Partial<AttemptLimits>;
  /** Budget of app-password connect attempts (each is a real login at Gmail). */
  connectLimits?: Partial<AttemptLimits>;
  /** A backfill retries a failing message this often before skipping it, this far apart. */
  backfillRetry?: { attempts: number; delayMs: number };
  now?: () => Date;
  /** OAuth: a fresh access token before every connect (added by the OAuth work). */
  oauthAccessToken?: (userId: number, account: MailboxAccountRow) => Promise<string>;
  /** Test hook: replaces IDLE (resolve false to make it fail). */
  startIdle?: (userId: number, client: ImapFlow) => Promise<boolean | undefined>;
  /** The largest message read (RFC822.SIZE); default MAIL_MESSAGE_MAX_BYTES. */
  messageMaxBytes?: number;
};

type BackfillRun = { cancelled: boolean; promise: Promise<void>; wake: () => void };

export function createMailboxService(deps: MailboxServiceDeps) {
  const { repo, events, log } = deps;
  const now = deps.now ?? (() => new Date());
  const timings: SupervisorTimings = { ...DEFAULT_TIMINGS, ...deps.timings };
  const domains = deps.senderDomains ?? AMAZON_SENDER_DOMAINS;
  const limits = { ...DEFAULT_ATTEMPT_LIMITS, ...deps.limits };
  const reconnectLimiter = createAttemptLimiter(limits, now);
  const idleLimiter = createAttemptLimiter(limits, now);
  const connectLimiter = createAttemptLimiter(
    { windowMs: 15 * 60_000, windowMax: 10, dailyMax: 50, ...deps.connectLimits },
    now,
  );
  const backfillRetry = deps.backfillRetry ?? { attempts: 3, delayMs: 2000 };
  const backfills = new Map<number, BackfillRun>();
  let stopping = false;
  const fetchLimits: FetchLimits = {
    ...FETCH_LIMITS,
    messageMaxBytes: deps.messageMaxBytes ?? FETCH_LIMITS.messageMaxBytes,
  };

  const userLog = (userId: number) => log.child({ userid: userId });

  // Credentials and connections ------------------------------------------------------------

  async function credentials(account: MailboxAccountRow): Promise<ImapAuth> {
    if (!account.secretEnc) throw new ImapError("auth", "No credential is stored");
    let secret: string;
    try {
      secret = deps.secrets.decrypt(account.secretEnc);
    } catch (err) {
      // Not "auth": a missing or changed key must never make us forget the stored credential.
      if (err instanceof SecretError) throw new ImapError("other", err.message, err);
      throw err;
    }
    if (account.authType === "oauth") {
      if (!deps.oauthAccessToken) {
        throw new ImapError("other", "Gmail OAuth is not configured on this server");
      }
      return {
        user: account.emailAddress,
        accessToken: await deps.oauthAccessToken(account.userId, account),
      };
    }
    return { user: account.emailAddress, pass: secret };
  }

  /** A new logged-in client for the user's connected mailbox. */
  async function connectFor(userId: number, purpose: string): Promise<ImapFlow> {
    const account = repo.findAccount(userId);
    if (!account?.isConnected || account.authState !== "ok") {
      throw new ImapError("other", NOT_CONNECTED);
    }
    return connectImap({
      endpoint: deps.endpoint,
      auth: await credentials(account),
      log: userLog(userId),
      id: `u${userId}-${purpose}`,
      socketTimeoutMs: timings.commandTimeoutMs,
    });
  }

  function settingsOf(userId: number): MailSettings | null {
    const a = repo.findAccount(userId);
    if (!a?.isConnected || a.authState !== "ok") return null;
    return {
      selectedFolder: a.selectedFolder,
      processedFolder: a.processedFolder,
      markProcessedAsRead: a.markProcessedAsRead,
    };
  }

  /** The server refused the credentials: Expired state, one critical notification. */
  function authFailed(userId: number, err: ImapError) {
    const account = repo.findAccount(userId);
    if (!account?.isConnected) return;
    userLog(userId).warn({ err: err.message }, "mailbox credentials refused: marked expired");
    repo.markExpired(userId);
    void manager.stop(userId);
    cancelBackfill(userId);
    try {
      deps.notifications.notify(
        userId,
        "critical",
        html`Gmail refused the saved credentials for <strong>${account.emailAddress}</strong>, so new Amazon mail is not being read. Connect your Gmail account again in Account Settings.`,
      );
    } catch (nErr) {
      log.error({ err: nErr }, "could not notify about expired mailbox credentials");
    }
    events.publish(userId, "user", "UPDATE");
    events.publish(userId, "IMAP", "STATUS");
  }

  // Supervisors -----------------------------------------------------------------------------

  const manager = createMailboxManager({
    log,
    connectedUsers: () => repo.connectedUserIds(),
    create: (userId) =>
      createSupervisor({
        userId,
        log: userLog(userId).child({ scope: "mailbox" }),
        timings,
        settings: () => settingsOf(userId),
        connect: () => connectFor(userId, "watch"),
        sync: createMailSync({
          userId,
          store: {
            get: (u, f) => repo.getFolderState(u, f),
            set: (u, f, v, l) => repo.setFolderState(u, f, v, l),
          },
          ingest: deps.ingest,
          limits: fetchLimits,
          domains: () => domains,
          log: userLog(userId),
          now,
        }),
        onChange: () => events.publish(userId, "IMAP", "STATUS"),
        onAuthFailure: (err) => authFailed(userId, err),
        startIdle: deps.startIdle ? (c) => deps.startIdle!(userId, c) : undefined,
      }),
  });

  // Helpers ---------------------------------------------------------------------------------

  function requireConnected(userId: number): MailboxAccountRow {
    const a = repo.findAccount(userId);
    if (a?.authState === "expired") throw conflict(EXPIRED);
    if (!a?.isConnected) throw conflict(NOT_CONNECTED);
    return a;
  }

  /**
   * A connection failure as the answer to a request: a temporary refusal is 503 with the
   * refusal in words (and Retry-After when the server said how long); an unreachable server
   * 502/504 with one sentence. Never 400: the user typed nothing wrong.
   */
  function unavailable(e: ImapError): AppError {
    const headers: Record<string, string> | undefined = e.retryAfterMs
      ? { "Retry-After": String(Math.ceil(e.retryAfterMs / 1000)) }
      : undefined;
    if (e.kind === "refused") return new AppError(503, e.message, undefined, headers);
    if (e.kind === "network") return new AppError(e.status, e.message);
    return new AppError(502, `Gmail did not accept the connection: ${e.message}`);
  }

  /** Runs fn on a short-lived connection; IMAP failures become 409/502/503/504 with a clear message. */
  async function withClient<T>(userId: number, what: string, fn: (c: ImapFlow) => Promise<T>) {
    let c: ImapFlow;
    try {
      c = await connectFor(userId, what);
    } catch (err) {
      const e = classifyImapError(err, deps.endpoint);
      if (e.kind === "auth") {
        authFailed(userId, e);
        throw conflict(EXPIRED);
      }
      throw unavailable(e);
    }
    try {
      return await fn(c);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError(
        503,
        `Gmail did not answer as expected: ${classifyImapError(err).message}`,
      );
    } finally {
      await closeImap(c);
    }
  }

  function inMinutes(t: Date): string {
    const min = Math.max(1, Math.ceil((t.getTime() - now().getTime()) / 60_000));
    if (min < 120) return `${min} minute${min === 1 ? "" : "s"}`;
    const h = Math.ceil(min / 60);
    return `${h} hours`;
  }

  function action(
    limiter: AttemptLimiter,
    userId: number,
    relevant: boolean,
    what: string,
  ): MailboxAction {
    const b = limiter.budget(userId);
    const remainingAttempts = b.remaining;
    if (!relevant) {
      return {
        available: false,
        message: "Not needed right now",
        nextAttemptTime: null,
        buttonState: "hidden",
        remainingAttempts,
      };
    }
    if (b.blockedBy && b.nextAttemptTime) {
      const daily = b.blockedBy === "daily";
      return {
        available: false,
        message: daily
          ? `Daily limit of ${limits.dailyMax} attempts reached. Try again in ${inMinutes(b.nextAttemptTime)}.`
          : `Too many attempts. Try again in ${inMinutes(b.nextAttemptTime)}.`,
        nextAttemptTime: b.nextAttemptTime.toISOString(),
        buttonState: daily ? "disabled" : "cooldown",
        remainingAttempts,
      };
    }
    return {
      available: true,
      message: `${what} (${remainingAttempts.window} of ${limits.windowMax} attempts left in ${Math.round(limits.windowMs / 60_000)} minutes, ${remainingAttempts.daily} today)`,
      nextAttemptTime: null,
      buttonState: "enabled",
      remainingAttempts,
    };
  }

  function take(limiter: AttemptLimiter, userId: number) {
    const r = limiter.take(userId);
    if (!r.allowed) {
      const next = r.budget.nextAttemptTime ?? new Date(now().getTime() + 60_000);
      const secs = Math.max(1, Math.ceil((next.getTime() - now().getTime()) / 1000));
      const message =
        r.budget.blockedBy === "daily"
          ? `Daily limit of ${limits.dailyMax} attempts reached. Try again in ${inMinutes(next)}.`
          : `Too many attempts. Try again in ${inMinutes(next)}.`;
      throw new AppError(
        429,
        message,
        { remainingAttempts: r.budget.remaining, nextAttemptTime: next.toISOString() },
        { "Retry-After": String(secs) },
      );
    }
  }

  // Backfills -------------------------------------------------------------------------------

  function cancelBackfill(userId: number) {
    const run = backfills.get(userId);
    if (run) {
      run.cancelled = true;
      run.wake();
    }
  }

  async function backfillOnce(userId: number, run: BackfillRun) {
    const row = repo.getBackfill(userId);
    if (row?.status !== "running") return;
    const settings = settingsOf(userId);
    if (!settings) {
      repo.deleteBackfill(userId);
      return;
    }
    const ulog = userLog(userId).child({ scope: "backfill" });
    const c = await connectFor(userId, "backfill");
    try {
      const lock = await c.getMailboxLock(row.folder);
      try {
        const mb = c.mailbox;
        if (!mb) throw new Error("The folder did not open");
        const uidValidity = Number(mb.uidValidity);
        let doneThrough = row.doneThroughUid;
        if (row.uidValidity !== null && row.uidValidity !== uidValidity) doneThrough = 0;
        repo.updateBackfill(userId, { uidValidity, doneThroughUid: doneThrough });
        let uids = await searchAmazonUids(c, domains, {
          afterUid: doneThrough,
          since: new Date(row.sinceDate),
        });
        ulog.info({ folder: row.folder, messages: uids.length, since: row.sinceDate }, "backfill");
        events.publish(userId, "IMAP", "UPDATE");
        let lastPublish = Date.now();
        const scan = deps.ingest.beginScan(userId, "backfill");
        try {
          const failures = new Map<number, number>();
          // Progress is persisted every BACKFILL_PROGRESS_EVERY messages and whenever a pass
          // ends (normally, stopped, failed or thrown), not after every message: after a crash
          // the resume re-reads at most that many messages, which is safe because the ledger
          // dedupes them (their orders are not applied twice; marking / moving again is harmless
          // and a message already moved away is simply gone from the folder).
          let unsaved = 0;
          let lastDone = doneThrough;
          const saveProgress = () => {
            if (unsaved === 0) return;
            unsaved = 0;
            repo.setBackfillProgress(userId, lastDone);
          };
          while (uids.length > 0 && !run.cancelled && !stopping) {
            let res: Awaited<ReturnType<typeof processUids>>;
            try {
              res = await processUids({
                client: c,
                userId,
                uids,
                ingest: deps.ingest,
                scan,
                limits: fetchLimits,
                settings: {
                  markProcessedAsRead: settings.markProcessedAsRead,
                  processedFolder: settings.processedFolder,
                },
                log: ulog,
                shouldStop: () => run.cancelled || stopping,
                onDone: (uid) => {
                  lastDone = uid;
                  if (++unsaved >= BACKFILL_PROGRESS_EVERY) saveProgress();
                  if (Date.now() - lastPublish > 500) {
                    lastPublish = Date.now();
                    events.publish(userId, "IMAP", "UPDATE");
                  }
                },
              });
            } finally {
              // The pass ended (or the connection was lost): what is done is persisted now.
              saveProgress();
            }
            if (!res.failed) break;
            const { uid } = res.failed;
            const n = (failures.get(uid) ?? 0) + 1;
            failures.set(uid, n);
            if (n >= backfillRetry.attempts) {
              ulog.error(
                { uid, attempts: n, err: res.failed.error },
                "backfill: a message keeps failing; it is left unprocessed",
              );
              lastDone = uid;
              repo.setBackfillProgress(userId, uid);
              uids = uids.filter((u) => u > uid);
            } else {
              uids = uids.filter((u) => u >= uid);
              await Bun.sleep(backfillRetry.delayMs);
            }
          }
        } finally {
          await deps.ingest.endScan(scan);
        }
        if (!run.cancelled && !stopping) {
          repo.updateBackfill(userId, { status: "done" });
          ulog.info("backfill finished");
        }
      } finally {
        lock.release();
      }
    } finally {
      await closeImap(c);
      events.publish(userId, "IMAP", "UPDATE");
      events.publish(userId, "user", "UPDATE");
    }
  }

  /** Runs (or resumes) the user's backfill in the background, retrying lost connections. */
  function runBackfill(userId: number) {
    if (backfills.has(userId) || stopping) return;
    const run: BackfillRun = { cancelled: false, promise: Promise.resolve(), wake: () => {} };
    run.promise = (async () => {
      for (let attempt = 0; !run.cancelled && !stopping; attempt++) {
        try {
          await backfillOnce(userId, run);
          return;
        } catch (err) {
          const e = classifyImapError(err, deps.endpoint);
          if (e.kind === "auth") {
            authFailed(userId, e);
            return;
          }
          if (attempt >= 4 && e.kind !== "refused") {
            // A lost connection resumes at the next start; anything else would fail again.
            if (e.kind !== "network") repo.updateBackfill(userId, { status: "failed" });
            userLog(userId).error(
              { err: e.message },
              e.kind === "network"
                ? "backfill failed; it resumes at the next start"
                : "backfill failed",
            );
            return;
          }
          // A temporary refusal waits as long as the server asked, and is never given up.
          const delay = atLeast(
            backoffDelay(attempt, {
              baseMs: timings.backoffBaseMs,
              maxMs: timings.backoffMaxMs,
              spread: 0.2,
            }),
            e.retryAfterMs,
          );
          userLog(userId).warn({ err: e.message, retryInMs: delay }, "backfill interrupted");
          // Cancelling (Disconnect, shutdown) ends the wait at once.
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, delay);
            run.wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
        }
      }
    })()
      .catch((err) => userLog(userId).error({ err }, "backfill crashed"))
      .finally(() => {
        if (backfills.get(userId) === run) backfills.delete(userId);
      });
    backfills.set(userId, run);
  }

  // The API ---------------------------------------------------------------------------------

  function emailSettings(userId: number): EmailSettings | null {
    const a = repo.findAccount(userId);
    // After Disconnect there are no settings to show (the provider chooser is shown again).
    if (!a || (!a.isConnected && a.authState !== "expired")) return null;
    const usable = a.isConnected && a.authState === "ok" && a.secretEnc !== null;
    return {
      provider: a.provider,
      isConnected: a.isConnected && a.authState === "ok",
      emailAddress: a.emailAddress,
      selectedFolder: a.selectedFolder,
      processedFolder: a.processedFolder,
      markProcessedAsRead: a.markProcessedAsRead,
      lastFolderRefresh: a.lastFolderRefresh,
      // Never the secret: the browser only needs to know whether a usable one exists.
      accessToken: usable ? "present" : null,
    };
  }

  async function stopUser(userId: number) {
    cancelBackfill(userId);
    await Promise.all([manager.stop(userId), backfills.get(userId)?.promise]);
  }

  async function refreshFolders(userId: number): Promise<MailFolder[]> {
    requireConnected(userId);
    const list = await withClient(userId, "folders", (c) => listFolders(c));
    repo.saveFolders(userId, list, now().toISOString());
    events.publish(userId, "user", "UPDATE");
    return list;
  }

  /**
   * Stores a proven credential (encrypted) and starts watching. The same address keeps its folder
   * settings and positions (mail that came meanwhile is read); another address starts afresh.
   * The OAuth callback calls this too, with the refresh token as `secret`.
   */
  async function saveConnection(
    userId: number,
    c: {
      authType: "app-password" | "oauth";
      emailAddress: string;
      secret: string;
      folders: MailFolder[] | null;
    },
  ) {
    const prev = repo.findAccount(userId);
    const same = prev !== undefined && prev.emailAddress === c.emailAddress;
    const exists = (p: string) => !c.folders || c.folders.some((f) => f.path === p);
    await stopUser(userId);
    if (!same) {
      repo.clearFolderState(userId);
      repo.deleteBackfill(userId);
    }
    repo.saveConnection(userId, {
      authType: c.authType,
      emailAddress: c.emailAddress,
      secretEnc: deps.secrets.encrypt(c.secret),
      selectedFolder: same && exists(prev.selectedFolder) ? prev.selectedFolder : "INBOX",
      processedFolder:
        same && prev.processedFolder && exists(prev.processedFolder) ? prev.processedFolder : null,
      markProcessedAsRead: same ? prev.markProcessedAsRead : false,
      folders: c.folders,
      lastFolderRefresh: c.folders ? now().toISOString() : null,
    });
    userLog(userId).info({ email: c.emailAddress, authType: c.authType }, "Gmail connected");
    manager.start(userId);
    if (repo.getBackfill(userId)?.status === "running") runBackfill(userId);
    events.publish(userId, "user", "UPDATE");
    events.publish(userId, "IMAP", "STATUS");
    return {
      success: true as const,
      message: "Email Connected",
      emailSettings: emailSettings(userId),
    };
  }

  return {
    emailSettings,
    saveConnection,
    /** Gmail refused the stored credential (e.g. OAuth invalid_grant): the Expired state. */
    credentialsRefused: (userId: number, reason: string) =>
      authFailed(userId, new ImapError("auth", reason)),
    stopUser,
    /** The manager, for tests and diagnostics. */
    manager,

    /** Proves the address and app password with a real login, then stores them encrypted. */
    async connectAppPassword(userId: number, body: { email: string; appPassword: string }) {
      take(connectLimiter, userId);
      let c: ImapFlow;
      try {
        c = await connectImap({
          endpoint: deps.endpoint,
          auth: { user: body.email, pass: body.appPassword },
          log: userLog(userId),
          id: `u${userId}-verify`,
        });
      } catch (err) {
        const e = classifyImapError(err, deps.endpoint);
        if (e.kind === "auth") throw badRequest(APP_PASSWORD_REFUSED);
        throw unavailable(e);
      }
      let folders: MailFolder[] | null = null;
      try {
        folders = await listFolders(c);
      } catch (err) {
        userLog(userId).warn({ err: (err as Error).message }, "listing folders after login failed");
      } finally {
        await closeImap(c);
      }

      return saveConnection(userId, {
        authType: "app-password",
        emailAddress: body.email,
        secret: body.appPassword,
        folders,
      });
    },

    status(userId: number): MailboxStatus {
      const a = repo.findAccount(userId);
      const expired = a?.authState === "expired";
      if (!a || (!a.isConnected && !expired)) throw notFound(NOT_CONNECTED);
      const snap = manager.get(userId)?.snapshot();
      const status = expired || !snap ? "disconnected" : snap.status;
      const lastError = expired
        ? EXPIRED
        : !snap
          ? "Mailbox monitoring is not running. Reconnect to start it."
          : status === "polling"
            ? "Real-time monitoring is unavailable: new mail is checked every 5 minutes."
            : snap.lastError;
      const stats = deps.ingest.stats(userId);
      return {
        status,
        manualReconnect: action(
          reconnectLimiter,
          userId,
          !expired && status === "disconnected",
          "Reconnect to Gmail now",
        ),
        idleRetry: action(idleLimiter, userId, status === "polling", "Retry real-time monitoring"),
        lastError,
        folder: a.selectedFolder,
        lastProcessedTime: stats.lastprocessedtime,
        emailsScanned: stats.emailsscanned,
        nextAttemptTime: expired ? null : (snap?.nextAttemptTime ?? null),
        reconnecting: !expired && (snap?.running ?? false) && (snap?.reconnecting ?? false),
      };
    },

    manualReconnect(userId: number) {
      requireConnected(userId);
      const sup = manager.get(userId);
      const st = sup?.isRunning() ? sup.snapshot().status : "disconnected";
      if (st === "idle" || st === "connected") {
        return { success: true as const, message: "The mailbox is already connected" };
      }
      if (st === "connecting") {
        return { success: true as const, message: "Already connecting to Gmail" };
      }
      take(reconnectLimiter, userId);
      events.publish(userId, "MANUAL_RECONNECT", "UPDATE");
      userLog(userId).info({ from: st }, "manual reconnect");
      if (sup) sup.reconnect();
      else manager.start(userId);
      return { success: true as const, message: "Reconnecting to Gmail" };
    },

    retryIdle(userId: number) {
      requireConnected(userId);
      const sup = manager.get(userId);
      const st = sup?.isRunning() ? sup.snapshot().status : "disconnected";
      if (st === "idle") {
        return { success: true as const, message: "Real-time monitoring is already on" };
      }
      if (!sup || st !== "polling") {
        throw conflict(
          "Real-time monitoring can be retried only while the mailbox is connected and polling. Reconnect first.",
        );
      }
      take(idleLimiter, userId);
      events.publish(userId, "MANUAL_RECONNECT", "UPDATE");
      userLog(userId).info("retry real-time monitoring");
      sup.retryIdle();
      return { success: true as const, message: "Retrying real-time monitoring" };
    },

    /** The cached list; refreshed when connected, empty and older than 24 h (spec §9). */
    async folders(userId: number): Promise<MailFolder[]> {
      const a = requireConnected(userId);
      const list = repo.folders(a);
      const last = a.lastFolderRefresh ? Date.parse(a.lastFolderRefresh) : Number.NaN;
      const stale = Number.isNaN(last) || now().getTime() - last > FOLDER_REFRESH_MS;
      if (list.length === 0 && stale) {
        try {
          return await refreshFolders(userId);
        } catch (err) {
          if (err instanceof AppError && err.status === 409) throw err;
          userLog(userId).warn({ err: (err as Error).message }, "automatic folder refresh failed");
        }
      }
      return list;
    },

    refreshFolders,

    async selectFolders(
      userId: number,
      body: {
        selectedFolder: string;
        processedFolder?: string | null;
        markProcessedAsRead: boolean;
      },
    ) {
      const a = requireConnected(userId);
      const selected = body.selectedFolder;
      const p = body.processedFolder?.trim();
      const processed = p && p !== "__none__" ? p : null;
      if (processed && processed === selected) {
        throw badRequest(
          "The processed-emails folder must be different from the monitored folder. Choose another one or 'Leave in original folder'.",
        );
      }
      let list = repo.folders(a);
      const has = (path: string) => list.some((f) => f.path === path);
      if (!has(selected) || (processed && !has(processed))) list = await refreshFolders(userId);
      for (const [path, label] of [
        [selected, "monitor"],
        [processed, "processed-emails"],
      ] as const) {
        if (path && !has(path)) {
          throw badRequest(
            `"${path.slice(0, 100)}" is not a folder of this mailbox (${label} folder). Refresh the folder list and choose again.`,
          );
        }
      }
      const changed =
        a.selectedFolder !== selected ||
        a.processedFolder !== processed ||
        a.markProcessedAsRead !== body.markProcessedAsRead;
      repo.saveFolderSettings(userId, {
        selectedFolder: selected,
        processedFolder: processed,
        markProcessedAsRead: body.markProcessedAsRead,
      });
      // The supervisor reads the settings when it opens the folder: reopen with the new ones.
      if (changed) manager.get(userId)?.restart();
      events.publish(userId, "user", "UPDATE");
      return {
        success: true as const,
        message: "Your folder preferences have been saved successfully.",
        emailSettings: emailSettings(userId),
      };
    },

    /** Starts monitoring (idempotent). */
    initialize(userId: number) {
      requireConnected(userId);
      const sup = manager.start(userId);
      return {
        success: true as const,
        message: "Mailbox monitoring started",
        status: sup?.snapshot().status ?? "disconnected",
      };
    },

    /** Starts a backfill of the monitored folder since now - daysBack; answers at once. */
    processEmails(userId: number, daysBack: number) {
      const a = requireConnected(userId);
      if (backfills.has(userId)) {
        return { success: true as const, message: "Old emails are already being processed." };
      }
      const since = new Date(now().getTime() - daysBack * DAY_MS);
      repo.startBackfill(userId, a.selectedFolder, since.toISOString());
      runBackfill(userId);
      return {
        success: true as const,
        message: "Starting to scan your emails for Amazon Vine orders. This may take a moment.",
      };
    },

    /** Resolves when the user's running backfill (if any) has finished. For tests. */
    backfillDone: async (userId: number) => {
      await backfills.get(userId)?.promise;
    },

    async disconnect(userId: number) {
      await stopUser(userId);
      if (repo.findAccount(userId)) {
        repo.disconnect(userId);
        userLog(userId).info("mailbox disconnected");
      }
      events.publish(userId, "user", "UPDATE");
      events.publish(userId, "IMAP", "STATUS");
      return { success: true as const, message: "Disconnected" };
    },

    /** Mailbox settings for GET /api/user/export (never the secret). */
    exportSection(userId: number): { mailbox: Record<string, unknown> | null } {
      const a = repo.findAccount(userId);
      if (!a) return { mailbox: null };
      return {
        mailbox: {
          provider: a.provider,
          authType: a.authType,
          emailAddress: a.emailAddress,
          isConnected: a.isConnected,
          authState: a.authState,
          selectedFolder: a.selectedFolder,
          processedFolder: a.processedFolder,
          markProcessedAsRead: a.markProcessedAsRead,
          lastFolderRefresh: a.lastFolderRefresh,
        },
      };
    },

    /** Boot: one supervisor per connected mailbox, and interrupted backfills resume. */
    startAll() {
      try {
        deps.secrets.ensureKey();
      } catch (err) {
        log.error(
          { err: (err as Error).message },
          "mailboxes not started: the secret key is unusable",
        );
        return 0;
      }
      const n = manager.startAll();
      for (const userId of repo.runningBackfillUserIds()) {
        if (settingsOf(userId)) runBackfill(userId);
      }
      if (n > 0) log.info({ mailboxes: n }, "mailbox supervisors started");
      return n;
    },

    /** Shutdown: stop backfills and supervisors before the database closes. */
    async stopAll() {
      stopping = true;
      for (const run of backfills.values()) {
        run.cancelled = true;
        run.wake();
      }
      await Promise.race([
        Promise.all([manager.stopAll(), ...[...backfills.values()].map((r) => r.promise)]),
        Bun.sleep(timings.stopGraceMs + 2000),
      ]);
    },
  };
}
export type MailboxService = ReturnType<typeof createMailboxService>;
