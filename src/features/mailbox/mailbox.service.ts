/**
 * The user's mailbox: connecting Gmail (app password now; OAuth reuses `connectFor`), the status
 * of its supervisor, folders, "Process Old Emails" backfills and Disconnect (docs/behaviour.md#states-and-transitions, docs/api.md, docs/messages.md).
 *
 * Reading mail goes through the ingestion service (`ingest`): everything a message changes is
 * committed when `ingest` resolves, and only then is the message marked read or moved.
 *
 * Live events: the `mailbox.*`, `mailbox-*` and `mail-folders.*` types of src/contract/events.ts.
 *
 * This module composes the others and holds the API's rules: `mailbox.connection.ts` (credentials,
 * connections, connection failures as answers), `mailbox.backfill.ts` (the "Process Old Emails"
 * runner), `mailbox.status.ts` (status, rate-limited actions, texts and notifications),
 * `mailbox.folders.ts` (the folder list and choice) and `mailbox.supervisors.ts` (the supervisors
 * of src/mail/imap/, given what they need: connect, settings, the ingestion port; the outage watch).
 */

import type { ImapFlow } from "imapflow";
import pTimeout from "p-timeout";
import type { EmailSettings, MailFolder } from "../../contract/index.ts";
import type { MailboxAccountRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import type { Logger } from "../../log.ts";
import { AMAZON_SENDER_DOMAINS } from "../../mail/amazon/senders.ts";
import {
  classifyImapError,
  closeImap,
  connectImap,
  type ImapEndpoint,
  ImapError,
  listFolders,
} from "../../mail/imap/client.ts";
import {
  type AttemptLimits,
  createAttemptLimiter,
  DEFAULT_ATTEMPT_LIMITS,
} from "../../mail/imap/manager.ts";
import type { FetchLimits } from "../../mail/imap/ports.ts";
import {
  DEFAULT_TIMINGS,
  type SupervisorTimers,
  type SupervisorTimings,
} from "../../mail/imap/supervisor.ts";
import { badRequest, conflict } from "../../util/errors.ts";
import type { Secrets } from "../../util/secrets.ts";
import type { NotificationsService } from "../notifications/notifications.service.ts";
import {
  INGEST_BATCH_MAX,
  INGEST_BATCH_MAX_BYTES,
  MAIL_MESSAGE_MAX_BYTES,
} from "./ingest.service.ts";
import { createBackfillRunner, type MailboxIngest } from "./mailbox.backfill.ts";
import { createMailboxConnections, unavailable } from "./mailbox.connection.ts";
import { createMailboxFolders } from "./mailbox.folders.ts";
import type { MailboxRepo } from "./mailbox.repo.ts";
import {
  createMailboxStatus,
  expiredNotice,
  requireConnected as requireConnectedIn,
} from "./mailbox.status.ts";
import { createSupervisors } from "./mailbox.supervisors.ts";

export type { MailboxIngest } from "./mailbox.backfill.ts";

/** The supervisor's and the backfill's FETCH: one ingest batch; the per-message cap. */
export const FETCH_LIMITS: FetchLimits = {
  batchMax: INGEST_BATCH_MAX,
  batchMaxBytes: INGEST_BATCH_MAX_BYTES,
  messageMaxBytes: MAIL_MESSAGE_MAX_BYTES,
};

export { APP_PASSWORD_REFUSED } from "./mailbox.status.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

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
  /** OAuth: Gmail refused this access token at login (forget it; the retry refreshes). */
  oauthTokenRefused?: (userId: number, accessToken: string) => void;
  /** Test hook: replaces IDLE (resolve false to make it fail). */
  startIdle?: (userId: number, client: ImapFlow) => Promise<boolean | undefined>;
  /** Test hook: the supervisors' timers (reconnect, IDLE checks, polls, stop's grace). */
  timers?: SupervisorTimers;
  /** The largest message read (RFC822.SIZE); default MAIL_MESSAGE_MAX_BYTES. */
  messageMaxBytes?: number;
  /** Failed connection attempts this long tell the admin (default SUPERVISOR_FAILING_AFTER_MS). */
  supervisorFailingAfterMs?: number;
};

export function createMailboxService(deps: MailboxServiceDeps) {
  const { repo, events, log } = deps;
  const now = deps.now ?? (() => new Date());
  const timings: SupervisorTimings = { ...DEFAULT_TIMINGS, ...deps.timings };
  const domains = deps.senderDomains ?? AMAZON_SENDER_DOMAINS;
  const limits = { ...DEFAULT_ATTEMPT_LIMITS, ...deps.limits };
  const connectLimiter = createAttemptLimiter(
    { windowMs: 15 * 60_000, windowMax: 10, dailyMax: 50, ...deps.connectLimits },
    now,
  );
  const backfillRetry = deps.backfillRetry ?? { attempts: 3, delayMs: 2000 };
  const fetchLimits: FetchLimits = {
    ...FETCH_LIMITS,
    messageMaxBytes: deps.messageMaxBytes ?? FETCH_LIMITS.messageMaxBytes,
  };

  const userLog = (userId: number) => log.child({ userid: userId });

  // Connections, status, backfills (one module each) ---------------------------------------

  const connections = createMailboxConnections({
    repo,
    secrets: deps.secrets,
    endpoint: deps.endpoint,
    log,
    timings,
    oauthAccessToken: deps.oauthAccessToken,
    oauthTokenRefused: deps.oauthTokenRefused,
    onAuthFailure: (userId, e) => authFailed(userId, e),
  });
  const { settingsOf, withClient } = connections;
  const mailboxStatus = createMailboxStatus({
    repo,
    limits,
    now,
    snapshot: (userId) => manager.get(userId)?.snapshot(),
    stats: (userId) => deps.ingest.stats(userId),
  });
  const { take, reconnectLimiter, idleLimiter } = mailboxStatus;
  const backfill = createBackfillRunner({
    repo,
    events,
    ingest: deps.ingest,
    log,
    endpoint: deps.endpoint,
    connections,
    fetchLimits,
    timings,
    domains,
    backfillRetry,
    onAuthFailure: (userId, e) => authFailed(userId, e),
    // A re-read after a reader upgrade waits for a running backfill (see rereadAfterUpgrade).
    onEnded: (userId) => rereadAfterUpgrade(userId),
  });

  /**
   * After the mail reader was upgraded (READER_VERSION raised), the mail it may read better (not
   * understood or read incompletely by an older reader) is read again from the mailbox, once per
   * version: a backfill of the monitored folder over their period, through which the ledger lets
   * them (and only them, besides mode-limited mail) be read again. Checked at start, when a
   * mailbox connects and when a backfill ends (a running one is never replaced).
   */
  function rereadAfterUpgrade(userId: number) {
    if (stopping || backfill.isRunning(userId)) return;
    const a = repo.findAccount(userId);
    if (!a?.isConnected || a.authState !== "ok") return;
    const due = deps.ingest.takeMailboxReread(userId);
    if (!due) return;
    const since = new Date(now().getTime() - due.daysBack * DAY_MS);
    userLog(userId).info(
      { messages: due.messages, daysBack: due.daysBack },
      "mail reader upgraded: mail it did not understand is read again",
    );
    repo.startBackfill(userId, a.selectedFolder, since.toISOString());
    backfill.run(userId);
  }
  let stopping = false;

  /** The server refused the credentials: Expired state, one critical notification. */
  function authFailed(userId: number, err: ImapError) {
    const account = repo.findAccount(userId);
    if (!account?.isConnected) return;
    userLog(userId).warn({ err: err.message }, "mailbox credentials refused: marked expired");
    repo.markExpired(userId);
    void manager.stop(userId);
    outages.forget(userId);
    backfill.cancel(userId);
    try {
      deps.notifications.notify(userId, "critical", expiredNotice(account.emailAddress), {
        event: "mailbox_attention",
      });
    } catch (nErr) {
      log.error({ err: nErr }, "could not notify about expired mailbox credentials");
    }
    events.publish(userId, "mailbox.disconnected");
  }

  // Supervisors, folders -------------------------------------------------------------------

  const { manager, outages } = createSupervisors({
    repo,
    events,
    notifications: deps.notifications,
    ingest: deps.ingest,
    log,
    userLog,
    now,
    timings,
    fetchLimits,
    domains,
    connections,
    onAuthFailure: (userId, e) => authFailed(userId, e),
    startIdle: deps.startIdle,
    timers: deps.timers,
    supervisorFailingAfterMs: deps.supervisorFailingAfterMs,
  });
  const folders = createMailboxFolders({
    repo,
    events,
    userLog,
    now,
    withClient,
    restart: (userId) => manager.get(userId)?.restart(),
    emailSettings: (userId) => emailSettings(userId),
  });
  const requireConnected = (userId: number) => requireConnectedIn(repo, userId);

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
    backfill.cancel(userId);
    await Promise.all([manager.stop(userId), backfill.done(userId)]);
    outages.forget(userId);
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
    if (repo.getBackfill(userId)?.status === "running") backfill.run(userId);
    rereadAfterUpgrade(userId);
    events.publish(userId, "mailbox.connected");
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
        if (e.kind === "auth") throw badRequest("app_password_refused");
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

    status: mailboxStatus.status,

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
      events.publish(userId, "mailbox-attempts.updated");
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
        throw conflict("realtime_retry_not_polling");
      }
      take(idleLimiter, userId);
      events.publish(userId, "mailbox-attempts.updated");
      userLog(userId).info("retry real-time monitoring");
      sup.retryIdle();
      return { success: true as const, message: "Retrying real-time monitoring" };
    },

    folders: folders.folders,
    refreshFolders: folders.refreshFolders,
    selectFolders: folders.selectFolders,

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
      if (backfill.isRunning(userId)) {
        return { success: true as const, message: "Old emails are already being processed." };
      }
      const since = new Date(now().getTime() - daysBack * DAY_MS);
      repo.startBackfill(userId, a.selectedFolder, since.toISOString());
      backfill.run(userId);
      return {
        success: true as const,
        message: "Starting to scan your emails for Amazon Vine orders. This may take a moment.",
      };
    },

    /** Resolves when the user's running backfill (if any) has finished. For tests. */
    backfillDone: async (userId: number) => {
      await backfill.done(userId);
    },

    async disconnect(userId: number) {
      await stopUser(userId);
      if (repo.findAccount(userId)) {
        repo.disconnect(userId);
        userLog(userId).info("mailbox disconnected");
      }
      events.publish(userId, "mailbox.disconnected");
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
        if (settingsOf(userId)) backfill.run(userId);
      }
      for (const userId of repo.connectedUserIds()) rereadAfterUpgrade(userId);
      if (n > 0) log.info({ mailboxes: n }, "mailbox supervisors started");
      return n;
    },

    /** Shutdown: stop backfills and supervisors before the database closes. */
    async stopAll() {
      stopping = true;
      await pTimeout(Promise.all([manager.stopAll(), backfill.stopAll()]), {
        milliseconds: timings.stopGraceMs + 2000,
        message: false,
      });
    },
  };
}
export type MailboxService = ReturnType<typeof createMailboxService>;
