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
import { createNotificationsRepo } from "./features/notifications/notifications.repo.ts";
import { createNotificationsService } from "./features/notifications/notifications.service.ts";
import { createOrdersRepo } from "./features/orders/orders.repo.ts";
import { createOrdersService } from "./features/orders/orders.service.ts";
import { createUsersRepo } from "./features/users/users.repo.ts";
import { createUsersService } from "./features/users/users.service.ts";
import type { AppLogger } from "./log.ts";

export function createServices(config: Config, db: Db, logger: AppLogger) {
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
  return {
    events,
    /** Open live-event streams (GET /api/events/stream); closed first at shutdown. */
    sse: createSseHub({ events }),
    notifications,
    orders,
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
      exportSections: [notifications.exportSection, orders.exportSection],
    }),
    adminLogs: createAdminLogsService({ logDir: config.logDir, activeFile: logger.activeFile }),
    /** Housekeeping that runs at start: forget expired sessions. */
    purgeExpiredSessions: () => sessionsRepo.deleteExpired(new Date().toISOString()),
  };
}
export type Services = ReturnType<typeof createServices>;
