/**
 * Builds what src/boot.ts builds before it listens (config, logger, database, services, the HTTP
 * app, the job registry) on the DATA_DIR given, without listening or starting anything, and prints
 * the files of every module loaded, one JSON array: test/lazy-modules.test.ts checks that the
 * libraries loaded with their first use are not among them. With `--then-detect`, a second array
 * follows: the files loaded once a tracking number's carrier was detected (its first use).
 */
import { loadConfig } from "../../src/config.ts";
import { closeDatabase, openDatabase } from "../../src/db/client.ts";
import { createApp } from "../../src/http/app.ts";
import { createAppJobs } from "../../src/jobs/registry.ts";
import { createLogger } from "../../src/log.ts";
import { createServices } from "../../src/services.ts";
import { detectCarrier } from "../../src/tracking/carrier-detect.ts";

const config = loadConfig();
const logger = createLogger({
  level: "warn",
  logDir: config.logDir,
  retentionDays: config.logRetentionDays,
  stdout: false,
});
const db = openDatabase(config.dbFile, config.migrationsDir);
const services = createServices(config, db, logger);
createApp({ config, db, log: logger.log, services });
createAppJobs({ services, log: logger.log });
closeDatabase(db);
await logger.close();
console.log(JSON.stringify(Object.keys(require.cache)));
if (process.argv.includes("--then-detect")) {
  detectCarrier("1Z999AA10123456784");
  console.log(JSON.stringify(Object.keys(require.cache)));
}
