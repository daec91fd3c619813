/**
 * The server's health (GET /api/health) and the free-space watch.
 *
 * Three checks, each cheap enough to run on every health request (Docker asks every 30 s):
 * - database: SQLite answers a read and its file is writable. No write lock is taken, so another
 *   process holding the lock (a backup, the sqlite3 shell) does not make the server "unhealthy".
 * - dataFolder: a small file can be written to DATA_DIR and removed (a full disk fails here, so
 *   does a folder that became read-only).
 * - diskSpace: free space in DATA_DIR (statfs, as the app's user sees it) is at least
 *   DISK_FREE_MIN_MB.
 *
 * The admin (user 1) gets one notification when free space falls below the threshold; another
 * only after it went back above it and fell again. The watch runs every minute, on every health
 * request, and whenever a write failed for lack of space (`noteDiskFull`). When even that
 * notification cannot be stored (the disk is already full), the next check tries again.
 */
import fs from "node:fs";
import path from "node:path";
import type { Db } from "../../db/client.ts";
import { pingDatabase } from "../../db/client.ts";
import type { Logger } from "../../log.ts";
import { ADMIN_USER_ID } from "../auth/auth.service.ts";
import { part } from "../notifications/message.ts";
import type { NotificationsService } from "../notifications/notifications.service.ts";

export const HEALTH_WATCH_INTERVAL_MS = 60_000;
const PROBE_NAME = ".health-probe";

export type HealthCheckName = "database" | "dataFolder" | "diskSpace";
export type HealthReport = {
  ok: boolean;
  /** "ok", or a sentence saying what is wrong. */
  checks: Record<HealthCheckName, string>;
  freeMb: number | null;
};

const LABELS: Record<HealthCheckName, string> = {
  database: "Database",
  dataFolder: "Data folder",
  diskSpace: "Disk space",
};

export function createHealthService(deps: {
  db: Db;
  dataDir: string;
  dbFile: string;
  minFreeMb: number;
  notifications: Pick<NotificationsService, "notify">;
  log: Logger;
  /** Free bytes for the app's user in `dir` (tests can replace it). */
  freeBytes?: (dir: string) => number;
}) {
  const freeBytes =
    deps.freeBytes ??
    ((dir: string) => {
      const s = fs.statfsSync(dir);
      return Number(s.bavail) * Number(s.bsize);
    });
  let low = false;
  let alerted = false;
  let timer: ReturnType<typeof setInterval> | null = null;

  function checkDatabase(): string {
    if (!pingDatabase(deps.db)) return "SQLite does not answer";
    try {
      fs.accessSync(deps.dbFile, fs.constants.W_OK);
    } catch (err) {
      return `${deps.dbFile} is not writable (${(err as NodeJS.ErrnoException).code ?? "error"})`;
    }
    return "ok";
  }

  function checkDataFolder(): string {
    const probe = path.join(deps.dataDir, PROBE_NAME);
    try {
      fs.writeFileSync(probe, "ok\n", { mode: 0o600 });
      return "ok";
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code === "ENOSPC"
        ? `${deps.dataDir} is full: nothing can be written`
        : `${deps.dataDir} is not writable (${code ?? "error"})`;
    } finally {
      fs.rmSync(probe, { force: true });
    }
  }

  function checkDiskSpace(): { text: string; freeMb: number | null } {
    let free: number;
    try {
      free = freeBytes(deps.dataDir);
    } catch (err) {
      return {
        text: `free space in ${deps.dataDir} cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`,
        freeMb: null,
      };
    }
    const freeMb = Math.floor(free / (1024 * 1024));
    watch(freeMb);
    return {
      text:
        freeMb < deps.minFreeMb
          ? `only ${freeMb} MB free in ${deps.dataDir}, below DISK_FREE_MIN_MB (${deps.minFreeMb} MB)`
          : "ok",
      freeMb,
    };
  }

  /** Low space starts one notification for the admin; recovery re-arms it. */
  function watch(freeMb: number) {
    const nowLow = freeMb < deps.minFreeMb;
    if (nowLow && !low) deps.log.warn({ freeMb, minFreeMb: deps.minFreeMb }, "disk space low");
    if (!nowLow && low) deps.log.info({ freeMb }, "disk space recovered");
    low = nowLow;
    if (!low) {
      alerted = false;
      return;
    }
    if (alerted) return;
    try {
      deps.notifications.notify(
        ADMIN_USER_ID,
        "critical",
        [
          part("server.health.diskLow", {
            free: String(freeMb),
            folder: deps.dataDir,
            min: String(deps.minFreeMb),
          }),
        ],
        { event: "disk_nearly_full" },
      );
      alerted = true;
    } catch (err) {
      // No admin yet, or the disk is too full to store it: the next check tries again.
      deps.log.warn({ err }, "disk space: the admin could not be notified");
    }
  }

  function report(): HealthReport {
    const disk = checkDiskSpace();
    const checks = {
      database: checkDatabase(),
      dataFolder: checkDataFolder(),
      diskSpace: disk.text,
    };
    return {
      ok: Object.values(checks).every((v) => v === "ok"),
      checks,
      freeMb: disk.freeMb,
    };
  }

  return {
    report,
    /** The sentence naming each failed check ("Disk space: only 3 MB free …"), for the 503. */
    describe(r: HealthReport): string {
      return (Object.keys(r.checks) as HealthCheckName[])
        .filter((k) => r.checks[k] !== "ok")
        .map((k) => `${LABELS[k]}: ${r.checks[k]}`)
        .join("; ");
    },
    /** A write failed for lack of space: look now (the admin hears of it without waiting). */
    noteDiskFull() {
      checkDiskSpace();
    },
    start() {
      if (timer) return;
      timer = setInterval(() => checkDiskSpace(), HEALTH_WATCH_INTERVAL_MS);
      timer.unref?.();
      checkDiskSpace();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
export type HealthService = ReturnType<typeof createHealthService>;
