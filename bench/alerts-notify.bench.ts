/**
 * What alerts add to the event that causes them (not a test):
 *
 *   bun run bench/alerts-notify.bench.ts [--notifications N]
 *
 * notify() for N notifications (default 2,000) on the real services and a fresh database, for a
 * user with no alert channels, and for a user with 5 channels that all chose the event (5 outbox
 * rows each). The sender is not started: this is the cost inside notify(), the part the caller
 * waits for; the sending happens later in the background. Prints µs per notify() for both and the
 * difference. Target: alerts add less than 1 ms per notification.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import { closeDatabase, openDatabase } from "../src/db/client.ts";
import { html } from "../src/features/notifications/html.ts";
import { createLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { intArg } from "./support/bench-utils.ts";

const N = intArg("--notifications", 2000, 10);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-alerts-"));
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" });
const logger = createLogger({
  level: "silent",
  logDir: config.logDir,
  retentionDays: 1,
  stdout: false,
});
const db = openDatabase(config.dbFile, config.migrationsDir);
const services = createServices(config, db, logger);
try {
  const user = (email: string) =>
    db.$client
      .query<{ id: number }, [string]>(
        "INSERT INTO users (email, displayname, password_hash) VALUES (?, 'B', 'x') RETURNING id",
      )
      .get(email)?.id as number;
  const plain = user("plain@example.com");
  const alerted = user("alerted@example.com");
  for (let i = 0; i < 5; i++) {
    await services.alerts.create(alerted, {
      type: "webhook",
      url: `http://127.0.0.1:9/hook/${i}`,
      format: "json",
      events: ["delivered"],
    });
  }
  const time = (userId: number) => {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      services.notifications.notify(
        userId,
        "information",
        html`Delivered: <strong>${`Item ${i}`}</strong>`,
        {
          event: "delivered",
        },
      );
    }
    return ((performance.now() - t0) * 1000) / N;
  };
  time(plain); // warm-up
  const without = time(plain);
  const withAlerts = time(alerted);
  const queued = db.$client.query("SELECT count(*) AS n FROM alert_outbox").get() as { n: number };
  const added = withAlerts - without;
  console.log(`alerts-notify: ${N} notifications per user`);
  console.log(`  no channels:        ${without.toFixed(1)} µs per notify()`);
  console.log(
    `  5 matching channels: ${withAlerts.toFixed(1)} µs per notify() (${queued.n} outbox rows)`,
  );
  console.log(
    `  added by alerts:    ${added.toFixed(1)} µs  ${added < 1000 ? "PASS" : "MISS"} (< 1000 µs)`,
  );
} finally {
  await services.alerts.stop();
  closeDatabase(db);
  await logger.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
