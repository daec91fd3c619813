/** Builds repos and services once, in one place; routes, jobs and tests receive them from here. */
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import { createEventBus } from "./events/bus.ts";
import { createAdminLogsService } from "./features/admin-logs/admin-logs.service.ts";
import { createAuthService } from "./features/auth/auth.service.ts";
import { createLoginThrottle } from "./features/auth/login-throttle.ts";
import { createSessionsRepo } from "./features/auth/sessions.repo.ts";
import { createUsersRepo } from "./features/users/users.repo.ts";
import { createUsersService } from "./features/users/users.service.ts";
import type { AppLogger } from "./log.ts";

export function createServices(config: Config, db: Db, logger: AppLogger) {
  const usersRepo = createUsersRepo(db);
  const sessionsRepo = createSessionsRepo(db);
  const events = createEventBus();
  return {
    events,
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
    }),
    adminLogs: createAdminLogsService({ logDir: config.logDir, activeFile: logger.activeFile }),
    /** Housekeeping that runs at start: forget expired sessions. */
    purgeExpiredSessions: () => sessionsRepo.deleteExpired(new Date().toISOString()),
  };
}
export type Services = ReturnType<typeof createServices>;
