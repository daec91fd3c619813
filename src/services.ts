/** Builds repos and services once, in one place; routes, jobs and tests receive them from here. */
import path from "node:path";
import { createAiClient } from "./ai/openai-client.ts";
import type { Config } from "./config.ts";
import { ENHANCE_DEFAULT_RETRY_SECONDS } from "./contract/constants.ts";
import type { PublicConfig } from "./contract/reviews.ts";
import type { Db } from "./db/client.ts";
import { createEventBus } from "./events/bus.ts";
import { createSseHub } from "./events/sse.ts";
import { createAdminLogsService } from "./features/admin-logs/admin-logs.service.ts";
import { createAlertsRepo } from "./features/alerts/alerts.repo.ts";
import { type AlertsDeps, createAlertsService } from "./features/alerts/alerts.service.ts";
import { ADMIN_USER_ID, createAuthService } from "./features/auth/auth.service.ts";
import { createLoginThrottle } from "./features/auth/login-throttle.ts";
import { createPasswords, type PasswordCost } from "./features/auth/passwords.ts";
import { createSessionsRepo } from "./features/auth/sessions.repo.ts";
import { createDashboardRepo } from "./features/dashboard/dashboard.repo.ts";
import { createDashboardService } from "./features/dashboard/dashboard.service.ts";
import { createFirstScreenService } from "./features/first-screen/first-screen.service.ts";
import { createHealthService } from "./features/health/health.service.ts";
import { createGmailOAuth } from "./features/mailbox/gmail-oauth.service.ts";
import { createIngestRepo } from "./features/mailbox/ingest.repo.ts";
import { createMailIngestService, type IngestDeps } from "./features/mailbox/ingest.service.ts";
import { createMailImportRepo } from "./features/mailbox/mail-import.repo.ts";
import { createMailImportService } from "./features/mailbox/mail-import.service.ts";
import { createMailboxRepo } from "./features/mailbox/mailbox.repo.ts";
import {
  createMailboxService,
  type MailboxServiceDeps,
} from "./features/mailbox/mailbox.service.ts";
import { createOAuthStatesRepo } from "./features/mailbox/oauth-states.repo.ts";
import { createNotificationsRepo } from "./features/notifications/notifications.repo.ts";
import { createNotificationsService } from "./features/notifications/notifications.service.ts";
import { createOrdersRepo } from "./features/orders/orders.repo.ts";
import { createOrdersService } from "./features/orders/orders.service.ts";
import { createRemindersRepo } from "./features/reminders/reminders.repo.ts";
import { createRemindersService } from "./features/reminders/reminders.service.ts";
import { createEnhanceService } from "./features/reviews/enhance.service.ts";
import { createMediaService } from "./features/reviews/media.service.ts";
import { createReviewSettingsRepo } from "./features/reviews/review-settings.repo.ts";
import { createReviewSettingsService } from "./features/reviews/review-settings.service.ts";
import { createTrackingRepo } from "./features/tracking/tracking.repo.ts";
import {
  createTrackingScheduler,
  type SchedulerTimers,
} from "./features/tracking/tracking.scheduler.ts";
import { createTrackingService } from "./features/tracking/tracking.service.ts";
import { createUsersRepo } from "./features/users/users.repo.ts";
import { createUsersService } from "./features/users/users.service.ts";
import { createVineRepo } from "./features/vine/vine.repo.ts";
import { createVineService } from "./features/vine/vine.service.ts";
import type { AppLogger, Logger } from "./log.ts";
import { isAmazonSender } from "./mail/amazon/senders.ts";
import { CALLBACK_PATH, createAccessTokens, createGoogleClient } from "./mail/oauth/google.ts";
import { parseMail } from "./mail/parse.ts";
import { createMediaTokens } from "./media/media-token.ts";
import { createMediaStorage } from "./media/storage.ts";
import { createCarrierLookup } from "./tracking/lookup.ts";
import type { CarrierLookup } from "./tracking/types.ts";
import { lazyModule } from "./util/lazy-module.ts";
import { createSecrets, loadOrCreateKeyFile } from "./util/secrets.ts";

/**
 * Tests replace parts of the mailbox (a slow or failing ingest, short timers, an IDLE hook) and of
 * tracking (an in-memory carrier lookup, a controlled clock and timers, a log to read).
 */
export type ServiceOverrides = {
  /** Alert channels: a clock, short retry waits, a short request timeout. */
  alerts?: Partial<Pick<AlertsDeps, "now" | "retryDelaysMs" | "timeoutMs" | "resolve">>;
  mailbox?: Partial<MailboxServiceDeps>;
  /**
   * The mail pipeline's reader and its version: tests simulate a reader upgrade by
   * raising the version and giving the reader that reads more.
   */
  mail?: Partial<Pick<IngestDeps, "readAmazonMail" | "readerVersion">>;
  tracking?: {
    lookup?: CarrierLookup;
    now?: () => Date;
    timers?: SchedulerTimers;
    log?: Logger;
    saveWaitMs?: number;
  };
  /** Free bytes in the data folder as the health checks see them (a full disk without one). */
  health?: { freeBytes?: (dir: string) => number };
  /** A cheaper argon2id cost for password hashes (tests: src/features/auth/passwords.ts). */
  passwordCost?: PasswordCost;
  /** Vine standing's clock ("today", window edges); Itemized Report uploads per user per hour. */
  vine?: { now?: () => Date; reportUploadsPerHour?: number };
  /** The orders service's clock ("Mark delivered"'s today, stamps). */
  orders?: { now?: () => Date };
};

/**
 * The Amazon mail reader with its date, HTML and number parsers (chrono-node alone is about 15 MB
 * resident): loaded with the first message read, not at start.
 */
const reader = lazyModule(
  () => require("./mail/amazon/reader.ts") as typeof import("./mail/amazon/reader.ts"),
);

export function createServices(
  config: Config,
  db: Db,
  logger: AppLogger,
  overrides: ServiceOverrides = {},
) {
  const usersRepo = createUsersRepo(db);
  const sessionsRepo = createSessionsRepo(db);
  const events = createEventBus();
  const ordersRepo = createOrdersRepo(db);
  const notifications = createNotificationsService({
    repo: createNotificationsRepo(db),
    events,
    // Built below (alerts need notifications to report a paused channel).
    onAlert: (userId, text, alert) => alerts.enqueue(userId, "", text, alert),
  });
  /** Review reminders (features/reminders), run daily by the review-reminders job. */
  const reminders = createRemindersService({ repo: createRemindersRepo(db), notifications });
  /** Carrier tracking: look-ups on demand and the daily check at each user's time (features/tracking). */
  const trackingRepo = createTrackingRepo(db);
  const trackingLog = overrides.tracking?.log ?? logger.log.child({ scope: "tracking" });
  const carrierLookup =
    overrides.tracking?.lookup ??
    createCarrierLookup(config.carriers, { log: trackingLog.child({ part: "lookup" }) });
  const tracking = createTrackingService({
    repo: trackingRepo,
    orders: ordersRepo,
    lookup: carrierLookup,
    events,
    notify: notifications.notify,
    log: trackingLog,
    now: overrides.tracking?.now,
    saveWaitMs: overrides.tracking?.saveWaitMs,
    onPreferencesChanged: (userId) => trackingScheduler.reschedule(userId),
  });
  const orders = createOrdersService({
    orders: ordersRepo,
    users: usersRepo,
    events,
    mediaDir: config.mediaDir,
    now: overrides.orders?.now,
    tracking,
    // Built below; called only after a request, when every service exists.
    onReviewDecided: (userId, order) =>
      alerts.enqueue(
        userId,
        "",
        `${order.status === "Review Approved" ? "Review approved" : "Review rejected"}: ${order.productname}`,
        { event: "review_decided", orderId: order.orderid },
      ),
  });
  /** Started by main.ts after the server listens; stopped with the jobs. */
  const trackingScheduler = createTrackingScheduler({
    repo: trackingRepo,
    run: (userId, trigger) => tracking.updateAll(userId, trigger),
    log: trackingLog,
    now: overrides.tracking?.now,
    timers: overrides.tracking?.timers,
  });
  /** Per-user review settings (Account → Review Settings); the AI enhancement reads them. */
  const reviewSettings = createReviewSettingsService({
    repo: createReviewSettingsRepo(db),
    events,
  });
  /** The mail pipeline: IMAP and the file import hand every raw message to it. */
  const mailIngest = createMailIngestService({
    repo: createIngestRepo(db),
    orders,
    notify: notifications.notify,
    events,
    log: logger.log.child({ scope: "mail" }),
    parseMail,
    readAmazonMail: (msg) => reader().readAmazonMail(msg),
    isAmazonSender,
    ...overrides.mail,
  });
  /** Vine standing: thresholds, review rate, evaluation, ETV, the Itemized Report import. */
  const vine = createVineService({
    repo: createVineRepo(db),
    orders: ordersRepo,
    users: usersRepo,
    events,
    now: overrides.vine?.now,
    reportUploadsPerHour: overrides.vine?.reportUploadsPerHour,
  });
  /** .eml/.mbox imports: spooled files read through the pipeline; imports cut short. */
  const mailImport = createMailImportService({
    ingest: mailIngest,
    repo: createMailImportRepo(db),
    tmpDir: path.join(config.dataDir, "tmp"),
  });
  const secrets = createSecrets({ key: config.secretKey, dataDir: config.dataDir });
  /** Alert channels (ntfy, webhooks, Web Push) and their outbox; started by main.ts. */
  const alerts = createAlertsService({
    repo: createAlertsRepo(db),
    secrets,
    events,
    notify: notifications.notify,
    timeZoneOf: (userId) => usersRepo.findById(userId)?.timezone ?? null,
    findOrder: (userId, orderId) => ordersRepo.findForUser(userId, orderId),
    isAdmin: (userId) => userId === ADMIN_USER_ID,
    publicUrl: config.publicUrl,
    webPushContact: config.webPushContact,
    allowLoopback: config.alertsAllowLoopback,
    log: logger.log.child({ scope: "alerts" }),
    ...overrides.alerts,
  });
  /** Gmail with OAuth: Google's endpoints, when the admin configured a client and PUBLIC_URL. */
  const g = config.google;
  const google =
    g.clientId && g.clientSecret && config.publicUrl
      ? createGoogleClient({
          clientId: g.clientId,
          clientSecret: g.clientSecret,
          redirectUri: `${config.publicUrl}${CALLBACK_PATH}`,
          authUrl: g.authUrl,
          tokenUrl: g.tokenUrl,
          userinfoUrl: g.userinfoUrl,
        })
      : null;
  const oauthLog = logger.log.child({ scope: "oauth" });
  const accessTokens = createAccessTokens({ google, secrets, log: oauthLog });
  /** The connected Gmail mailbox: supervisors (IDLE), folders, backfills. */
  const mailbox = createMailboxService({
    repo: createMailboxRepo(db),
    secrets,
    events,
    notifications,
    ingest: mailIngest,
    endpoint: config.gmailImap,
    log: logger.log.child({ scope: "mailbox" }),
    // A fresh access token before every connect; invalid_grant → the Expired state.
    oauthAccessToken: (userId, account) => accessTokens.get(userId, account),
    // A refused access token is forgotten; the login is retried once with a refreshed one.
    oauthTokenRefused: (userId, token) => accessTokens.forget(userId, token),
    // At SIGTERM the batch in hand gets the same grace period as uploads (SHUTDOWN_GRACE_SECONDS).
    timings: { stopGraceMs: config.shutdownGraceSeconds * 1000 },
    ...overrides.mailbox,
  });
  /** Review photos and video (upload, delete, reorder, serving, export). */
  const media = createMediaService({
    orders: ordersRepo,
    events,
    storage: createMediaStorage({
      mediaDir: config.mediaDir,
      tmpDir: path.join(config.dataDir, "tmp"),
    }),
    tokens: createMediaTokens({
      key: config.secretKey ?? loadOrCreateKeyFile(config.dataDir),
      // A password change (new hash) ends the media links issued before it.
      stamp: (userId) => usersRepo.findById(userId)?.passwordHash ?? null,
      // Sign-out (or an expired session) ends the links issued to the session.
      sessionIds: (userId) => sessionsRepo.liveIdsForUser(userId, new Date().toISOString()),
    }),
  });
  const gmailOAuth = createGmailOAuth({
    states: createOAuthStatesRepo(db),
    google,
    clientId: g.clientId,
    publicUrl: config.publicUrl,
    accessTokens,
    mailbox,
    endpoint: config.gmailImap,
    log: oauthLog,
  });
  /** Open live-event streams; sign-out and password changes end theirs. */
  const sse = createSseHub({ events });
  /** Failed password checks: sign-in, current password, refused sign-ups (one throttle). */
  const throttle = createLoginThrottle();
  /** Password hashes (argon2id), for sign-up, sign-in and the current-password checks. */
  const passwords = createPasswords(overrides.passwordCost);
  /** The AI server (null when none is configured). */
  const aiClient = createAiClient(config.ai, {
    defaultRetrySeconds: ENHANCE_DEFAULT_RETRY_SECONDS,
  });
  return {
    events,
    /** GET /api/config: decided by the same objects that do the work (no secrets). */
    publicConfig: {
      aiAvailable: aiClient !== null,
      trackingCarriers: carrierLookup.supported(),
      gmailOAuth: google !== null,
    } satisfies PublicConfig,
    /** Open live-event streams (GET /api/events/stream); closed first at shutdown. */
    sse,
    notifications,
    reminders,
    alerts,
    orders,
    tracking,
    trackingScheduler,
    reviewSettings,
    vine,
    media,
    /** AI help with the review text (POST /api/orders/{id}/review/enhance). */
    enhance: createEnhanceService({
      ai: aiClient,
      getOrder: (userId, orderId) => orders.get(userId, orderId),
      settings: (userId) => reviewSettings.get(userId),
      hourlyLimit: config.ai.hourlyLimit,
      timeoutMs: config.ai.timeoutMs,
      log: logger.log.child({ scope: "ai" }),
    }),
    mailIngest,
    mailImport,
    mailbox,
    /** Connect Gmail with OAuth (GET /api/auth/google and its callback). */
    gmailOAuth,
    dashboard: createDashboardService({
      dashboard: createDashboardRepo(db),
      orders: ordersRepo,
      users: usersRepo,
    }),
    auth: createAuthService({
      users: usersRepo,
      sessions: sessionsRepo,
      passwords,
      throttle,
      streams: sse,
      allowRegistration: config.allowRegistration,
      sessionDays: config.sessionDays,
      signupHourlyLimit: config.signupHourlyLimit,
    }),
    users: createUsersService({
      users: usersRepo,
      sessions: sessionsRepo,
      passwords,
      throttle,
      streams: sse,
      mediaDir: config.mediaDir,
      exportSections: [
        notifications.exportSection,
        orders.exportSection,
        mailIngest.exportSection,
        mailbox.exportSection,
        reviewSettings.exportSection,
        vine.exportSection,
        media.exportSection,
        alerts.exportSection,
      ],
      exportFiles: (userId) => media.exportFiles(userId),
      mailStats: (userId) => mailIngest.stats(userId),
      mailbox,
      trackingSchedule: trackingScheduler,
    }),
    /** The signed-in first screen drawn on the server (GET /api/first-screen). */
    firstScreen: createFirstScreenService({
      distDir: config.distDir,
      log: logger.log.child({ scope: "first-screen" }),
    }),
    adminLogs: createAdminLogsService({ logDir: config.logDir, activeFile: logger.activeFile }),
    /** GET /api/health's checks and the free-space watch (the admin's low-space notification). */
    health: createHealthService({
      db,
      dataDir: config.dataDir,
      dbFile: config.dbFile,
      minFreeMb: config.diskFreeMinMb,
      notifications,
      log: logger.log.child({ scope: "health" }),
      freeBytes: overrides.health?.freeBytes,
    }),
    /** Housekeeping that runs at start: forget expired sessions. */
    purgeExpiredSessions: () => sessionsRepo.deleteExpired(new Date().toISOString()),
  };
}
export type Services = ReturnType<typeof createServices>;
