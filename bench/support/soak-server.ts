/**
 * The server for the soak benchmark: what src/boot.ts builds and starts (the same config, logger,
 * database, services, HTTP app, jobs, tracking schedule, mailbox supervisors, health watch and
 * alert outbox), with its clock running SOAK_SPEED times faster. The services' clocks read the
 * sped time; the mailbox's timers (IDLE renewal, its checks, polling, backoff) and the tracking
 * schedule's timers wait SOAK_SPEED times less. IMAP's command timeout keeps a floor of 2 s: it
 * is a deadline for Dovecot's answer, not a schedule.
 *
 * Its settling and trims every 10 minutes (src/util/idle-memory.ts) run as src/boot.ts has them,
 * the trims on the sped clock (the start-up JIT policy is src/main.ts's and not here: it ends
 * before the day begins); SOAK_IDLE_GC=off leaves them out (to see what they change).
 *
 * On SIGUSR2 it collects garbage in full and writes one JSON line to stdout, {rssKb, anonKb}: what
 * stays resident once garbage is gone, the figure a leak raises.
 *
 *   SOAK_SPEED=120 DATA_DIR=… PORT=… bun bench/support/soak-server.ts
 */
import fs from "node:fs";
import { loadConfig } from "../../src/config.ts";
import { closeDatabase, openDatabase } from "../../src/db/client.ts";
import { createApp } from "../../src/http/app.ts";
import { createAppJobs } from "../../src/jobs/registry.ts";
import { createLogger } from "../../src/log.ts";
import { DEFAULT_TIMINGS } from "../../src/mail/imap/supervisor.ts";
import { createServices } from "../../src/services.ts";
import { IDLE_TRIM_EVERY_MS, startIdleMemory } from "../../src/util/idle-memory.ts";

const SPEED = Number(process.env.SOAK_SPEED ?? 1);
const t0 = Date.now();
const now = () => new Date(t0 + (Date.now() - t0) * SPEED);
const timers = {
  setTimeout(fn: () => void, ms: number) {
    const t = setTimeout(fn, ms / SPEED);
    t.unref();
    return t;
  },
  clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

const config = loadConfig();
const logger = createLogger({
  level: config.logLevel,
  logDir: config.logDir,
  retentionDays: config.logRetentionDays,
});
const db = openDatabase(config.dbFile, config.migrationsDir);
const d = DEFAULT_TIMINGS;
const services = createServices(config, db, logger, {
  mailbox: {
    timings: {
      idleRestartMs: d.idleRestartMs / SPEED,
      commandTimeoutMs: Math.max(2_000, d.commandTimeoutMs / SPEED),
      pollIntervalMs: d.pollIntervalMs / SPEED,
      backoffBaseMs: d.backoffBaseMs / SPEED,
      backoffMaxMs: d.backoffMaxMs / SPEED,
      stopGraceMs: config.shutdownGraceSeconds * 1000,
    },
  },
  tracking: { now, timers },
  alerts: { now },
  orders: { now },
  vine: { now },
});
const app = createApp({ config, db, log: logger.log.child({ scope: "http" }), services });
const server = Bun.serve({
  port: config.port,
  hostname: config.host,
  idleTimeout: 60,
  fetch: (req, srv) => app.fetch(req, { server: srv }),
});
const jobs = createAppJobs({ services, log: logger.log.child({ scope: "jobs" }), now });
jobs.start();
services.trackingScheduler.start();
services.mailbox.startAll();
services.health.start();
services.alerts.start();
if (process.env.SOAK_IDLE_GC !== "off") {
  const idleMemory = startIdleMemory({ everyMs: IDLE_TRIM_EVERY_MS / SPEED });
  services.events.watchAll(idleMemory.activity);
}

process.on("SIGUSR2", () => {
  Bun.gc(true);
  const st = fs.readFileSync("/proc/self/status", "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(st)?.[1] ?? 0);
  fs.writeSync(1, `${JSON.stringify({ rssKb: kb("VmRSS"), anonKb: kb("RssAnon") })}\n`);
});

process.on("SIGTERM", async () => {
  services.sse.closeAll();
  services.health.stop();
  await jobs.stop();
  await services.trackingScheduler.stop();
  await services.alerts.stop();
  await services.mailbox.stopAll();
  await server.stop(true);
  closeDatabase(db);
  await logger.close();
  process.exit(0);
});
