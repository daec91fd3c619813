/**
 * Online backup of the database while Grapevine runs: `VACUUM INTO` writes a consistent,
 * compacted copy without stopping the server (WAL lets readers and the writer go on).
 *   bun run scripts/backup.ts [destination-file]
 * Default destination: DATA_DIR/backups/app-YYYYMMDD-HHMMSS.db
 */
import { Database } from "bun:sqlite";
import fs from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig } from "../src/config.ts";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : String(err));
  process.exit(1);
}
if (!fs.existsSync(config.dbFile)) {
  console.error(`No database at ${config.dbFile}. Is DATA_DIR right?`);
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
const dest = path.resolve(
  process.argv[2] ?? path.join(config.dataDir, "backups", `app-${stamp}.db`),
);
if (fs.existsSync(dest)) {
  console.error(`${dest} already exists; choose another file name.`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(dest), { recursive: true });
const db = new Database(config.dbFile, { readonly: true });
db.exec("PRAGMA busy_timeout = 10000");
db.query("VACUUM INTO ?").run(dest);
db.close();
const check = new Database(dest, { readonly: true });
const ok = check.query("PRAGMA integrity_check").get() as { integrity_check: string };
check.close();
if (ok.integrity_check !== "ok") {
  console.error(`The backup at ${dest} failed its integrity check: ${ok.integrity_check}`);
  process.exit(1);
}
console.log(`Backed up ${config.dbFile} to ${dest} (${fs.statSync(dest).size} bytes)`);
