/**
 * The server, loaded by src/main.ts. Boot in a fixed order: config → data folder (owner-only) →
 * logger → database + migrations → services → HTTP → jobs.
 * Shut down in reverse on SIGTERM/SIGINT: new requests get 503 at once, SSE streams close, jobs
 * stop, requests in flight (uploads, imports) and backfill batches get SHUTDOWN_GRACE_SECONDS to
 * finish, the db closes, temp files go; exit code 0 when everything finished in time, else 1.
 */
import fs from "node:fs";
import path from "node:path";
import pTimeout from "p-timeout";
import { ConfigError, loadConfig } from "./config.ts";
import { closeDatabase, openDatabase } from "./db/client.ts";
import { IMPORT_BODY_LIMIT } from "./features/mailbox/mail-import.service.ts";
import { MEDIA_BODY_LIMIT } from "./features/reviews/media.service.ts";
import { createApp } from "./http/app.ts";
import { createDrain } from "./http/middleware/drain.ts";
import { createAppJobs } from "./jobs/registry.ts";
import { createLogger } from "./log.ts";
import { createServices } from "./services.ts";
import { privateDataDir } from "./util/file-modes.ts";
import { startIdleMemory } from "./util/idle-memory.ts";

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

// Everything the process creates is owner-only (files 0600, folders 0700); what an older version
// left readable by others is fixed below.
process.umask(0o077);
let logger: ReturnType<typeof createLogger>;
let modesFixed = 0;
try {
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.accessSync(config.dataDir, fs.constants.W_OK);
  modesFixed = privateDataDir(config.dataDir);
  logger = createLogger({
    level: config.logLevel,
    logDir: config.logDir,
    retentionDays: config.logRetentionDays,
  });
} catch (err) {
  die(`Cannot use the data folder ${config.dataDir} (DATA_DIR): ${(err as Error).message}`);
}
const log = logger.log.child({ scope: "main" });
if (modesFixed > 0)
  log.info({ modesFixed }, "data folder made owner-only (files 0600, folders 0700)");

let db: ReturnType<typeof openDatabase>;
try {
  db = openDatabase(config.dbFile, config.migrationsDir);
} catch (err) {
  log.fatal({ err }, `cannot open the database at ${config.dbFile}`);
  die(`Cannot open the database at ${config.dbFile}: ${(err as Error).message}`);
}
const services = createServices(config, db, logger);
services.purgeExpiredSessions();
const drain = createDrain();
const app = createApp({ config, db, log: logger.log.child({ scope: "http" }), services, drain });

// The start settles once nothing happened for a moment or someone makes a request: the JIT's
// normal policy again, then, and every 10 minutes after, a full garbage collection with the
// compiled code that is not running dropped (src/util/idle-memory.ts).
const idleMemory = startIdleMemory({
  onSettled: () => log.debug("start settled: the normal JIT policy, memory trimmed"),
});
services.events.watchAll(idleMemory.activity);

let server: ReturnType<typeof Bun.serve>;
try {
  server = Bun.serve({
    port: config.port,
    hostname: config.host,
    idleTimeout: 60,
    // The largest body any route takes (a Takeout .mbox import; a review upload, 10 files with a
    // 100 MB video, is far below it); JSON routes cap theirs at 1 MB.
    maxRequestBodySize: Math.max(IMPORT_BODY_LIMIT, MEDIA_BODY_LIMIT) + 1024 * 1024,
    fetch: (req, srv) => {
      if (!idleMemory.settled()) idleMemory.request(new URL(req.url).pathname);
      return app.fetch(req, { server: srv });
    },
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
const jobs = createAppJobs({ services, log: logger.log.child({ scope: "jobs" }) });
jobs.start();
// The daily tracking check: one schedule per user at their time; missed runs catch up in the background.
services.trackingScheduler.start();
// One mailbox supervisor per connected Gmail account; interrupted backfills resume.
services.mailbox.startAll();
// Free space in DATA_DIR, every minute: the admin is notified once when it falls below the threshold.
services.health.start();
// Alert channels: what waited in the outbox (across a restart too) goes out in the background.
services.alerts.start();

/** Upload and import temp files (DATA_DIR/tmp): nothing can use them once the process ends. */
function removeTempFiles() {
  fs.rmSync(path.join(config.dataDir, "tmp"), { recursive: true, force: true });
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  // From here on every new request is answered 503; those already running are counted.
  drain.begin();
  const graceMs = config.shutdownGraceSeconds * 1000;
  log.info(
    { signal, inFlight: drain.inFlight(), graceSeconds: config.shutdownGraceSeconds },
    "shutting down",
  );
  // Whatever hangs past the grace period and its own clean-up: out anyway, without temp files.
  const force = setTimeout(() => {
    removeTempFiles();
    process.exit(1);
  }, graceMs + 10_000);
  force.unref();
  // Open SSE streams never end on their own: close them first, or server.stop would wait for them.
  const streams = services.sse.closeAll();
  if (streams > 0) log.info({ streams }, "live event streams closed");
  services.health.stop();
  idleMemory.stop();
  await jobs.stop();
  await services.trackingScheduler.stop();
  await services.alerts.stop();
  // Uploads and imports in flight, and the supervisors and backfills (which finish the batch in
  // hand and log out), get the grace period.
  const inTime = await pTimeout(
    Promise.all([drain.idle(graceMs), services.mailbox.stopAll().then(() => true)]).then((r) =>
      r.every(Boolean),
    ),
    { milliseconds: graceMs, fallback: () => false },
  );
  if (!inTime) {
    log.warn(
      { inFlight: drain.inFlight() },
      "the grace period is over: work still in flight is cut (what it had not committed is not saved)",
    );
  }
  await server.stop(!inTime);
  closeDatabase(db);
  removeTempFiles();
  log.info({ inTime }, "stopped");
  await logger.close();
  process.exit(inTime ? 0 : 1);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
