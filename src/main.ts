/**
 * Boot in a fixed order: config → logger → database + migrations → services → HTTP → jobs.
 * Shut down in reverse on SIGTERM/SIGINT: close SSE streams, stop jobs, stop accepting and finish
 * in-flight requests, close the db.
 */
import fs from "node:fs";
import { ConfigError, loadConfig } from "./config.ts";
import { closeDatabase, openDatabase } from "./db/client.ts";
import { MEDIA_BODY_LIMIT } from "./features/reviews/media.service.ts";
import { createApp } from "./http/app.ts";
import { IMPORT_BODY_LIMIT } from "./http/routes/mail-import.routes.ts";
import { createAppJobs } from "./jobs/registry.ts";
import { createLogger } from "./log.ts";
import { createServices } from "./services.ts";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

function die(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let logger: ReturnType<typeof createLogger>;
try {
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.accessSync(config.dataDir, fs.constants.W_OK);
  logger = createLogger({
    level: config.logLevel,
    logDir: config.logDir,
    retentionDays: config.logRetentionDays,
  });
} catch (err) {
  die(`Cannot use the data folder ${config.dataDir} (DATA_DIR): ${(err as Error).message}`);
}
const log = logger.log.child({ scope: "main" });

let db: ReturnType<typeof openDatabase>;
try {
  db = openDatabase(config.dbFile, config.migrationsDir);
} catch (err) {
  log.fatal({ err }, `cannot open the database at ${config.dbFile}`);
  die(`Cannot open the database at ${config.dbFile}: ${(err as Error).message}`);
}
const services = createServices(config, db, logger);
services.purgeExpiredSessions();
const app = createApp({ config, db, log: logger.log.child({ scope: "http" }), services });

let server: ReturnType<typeof Bun.serve>;
try {
  server = Bun.serve({
    port: config.port,
    hostname: config.host,
    idleTimeout: 60,
    // The largest body any route takes (a Takeout .mbox import; a review upload, 10 files with a
    // 100 MB video, is far below it); JSON routes cap theirs at 1 MB.
    maxRequestBodySize: Math.max(IMPORT_BODY_LIMIT, MEDIA_BODY_LIMIT) + 1024 * 1024,
    fetch: (req, srv) => app.fetch(req, { server: srv }),
  });
} catch (err) {
  const msg = `Cannot listen on ${config.host}:${config.port}: ${String((err as Error).message ?? err)}`;
  log.fatal(msg);
  die(msg);
}
log.info(
  { port: server.port, dataDir: config.dataDir },
  `Grapevine listening on http://${config.host}:${server.port}`,
);

// Background jobs start after the server listens (start-up runs go in the background).
const jobs = createAppJobs({ db, services, log: logger.log.child({ scope: "jobs" }) });
jobs.start();
// The daily tracking check: one schedule per user at their time; missed runs catch up in the background.
services.trackingScheduler.start();
// One mailbox supervisor per connected Gmail account; interrupted backfills resume.
services.mailbox.startAll();
// Alert channels: what waited in the outbox (across a restart too) goes out in the background.
services.alerts.start();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "shutting down");
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  // Open SSE streams never end on their own: close them first, or server.stop would wait for them.
  const streams = services.sse.closeAll();
  if (streams > 0) log.info({ streams }, "live event streams closed");
  await jobs.stop();
  await services.trackingScheduler.stop();
  await services.alerts.stop();
  // Supervisors and backfills finish the message in hand and log out before the db closes.
  await services.mailbox.stopAll();
  await server.stop(false);
  closeDatabase(db);
  log.info("stopped");
  await logger.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
