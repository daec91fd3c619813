/** Builds repos and services once, in one place; routes, jobs and tests receive them from here. */
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import { createEventBus } from "./events/bus.ts";
import { createSseHub } from "./events/sse.ts";
import { createAdminLogsService } from "./features/admin-logs/admin-logs.service.ts";
import { createAuthService } from "./features/auth/auth.service.ts";
import { createLoginThrottle } from "./features/auth/login-throttle.ts";
import { createSessionsRepo } from "./features/auth/sessions.repo.ts";
import { createDashboardRepo } from "./features/dashboard/dashboard.repo.ts";
import { createDashboardService } from "./features/dashboard/dashboard.service.ts";
import { createIngestRepo } from "./features/mailbox/ingest.repo.ts";
import { createMailIngestService } from "./features/mailbox/ingest.service.ts";
import { createMailboxRepo } from "./features/mailbox/mailbox.repo.ts";
import {
  createMailboxService,
  type MailboxServiceDeps,
} from "./features/mailbox/mailbox.service.ts";
import { createNotificationsRepo } from "./features/notifications/notifications.repo.ts";
import { createNotificationsService } from "./features/notifications/notifications.service.ts";
import { createOrdersRepo } from "./features/orders/orders.repo.ts";
import { createOrdersService } from "./features/orders/orders.service.ts";
import { createUsersRepo } from "./features/users/users.repo.ts";
import { createUsersService } from "./features/users/users.service.ts";
import { createSecrets } from "./lib/secrets.ts";
import type { AppLogger } from "./log.ts";
import { readAmazonMail } from "./mail/amazon/reader.ts";
import { isAmazonSender } from "./mail/amazon/senders.ts";
import {
  CALLBACK_PATH,
  createAccessTokens,
  createGmailOAuth,
  createGoogleClient,
} from "./mail/oauth/google.ts";
import { parseMail } from "./mail/parse.ts";

/** Tests replace parts of the mailbox (a slow or failing ingest, short timers, an IDLE hook). */
export type ServiceOverrides = { mailbox?: Partial<MailboxServiceDeps> };

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
  const orders = createOrdersService({
    orders: ordersRepo,
    users: usersRepo,
    events,
    mediaDir: config.mediaDir,
  });
  const notifications = createNotificationsService({
    repo: createNotificationsRepo(db),
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
    readAmazonMail,
    isAmazonSender,
  });
  const secrets = createSecrets({ key: config.secretKey, dataDir: config.dataDir });
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
    ...overrides.mailbox,
  });
  const gmailOAuth = createGmailOAuth({
    db,
    google,
    clientId: g.clientId,
    publicUrl: config.publicUrl,
    accessTokens,
    mailbox,
    endpoint: config.gmailImap,
    log: oauthLog,
  });
  return {
    events,
    /** Open live-event streams (GET /api/events/stream); closed first at shutdown. */
    sse: createSseHub({ events }),
    notifications,
    orders,
    mailIngest,
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
      throttle: createLoginThrottle(),
      allowRegistration: config.allowRegistration,
      sessionDays: config.sessionDays,
    }),
    users: createUsersService({
      users: usersRepo,
      sessions: sessionsRepo,
      mediaDir: config.mediaDir,
      exportSections: [
        notifications.exportSection,
        orders.exportSection,
        mailIngest.exportSection,
        mailbox.exportSection,
      ],
      mailStats: (userId) => mailIngest.stats(userId),
      mailbox,
    }),
    adminLogs: createAdminLogsService({ logDir: config.logDir, activeFile: logger.activeFile }),
    /** Housekeeping that runs at start: forget expired sessions. */
    purgeExpiredSessions: () => sessionsRepo.deleteExpired(new Date().toISOString()),
  };
}
export type Services = ReturnType<typeof createServices>;
