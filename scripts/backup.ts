/**
 * Online backup of the database while Grapevine runs: `VACUUM INTO` writes a consistent,
 * compacted copy without stopping the server (WAL lets readers and the writer go on).
 *   bun run scripts/backup.ts [destination-file]
 * Default destination: DATA_DIR/backups/app-YYYYMMDD-HHMMSS.db
 * Prints one line: where the backup went, or why it failed (exit code 1, no file left behind).
 */
import { Database } from "bun:sqlite";
import fs from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig } from "../src/config.ts";
import { isDiskFull } from "../src/util/errors.ts";

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
// Written under a temporary name beside the destination and renamed once it passed its integrity
// check, so a backup file that exists is always whole; on any failure the temporary file goes.
const temp = `${dest}.part`;
try {
  fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
  fs.rmSync(temp, { force: true });
  const db = new Database(config.dbFile, { readonly: true });
  try {
    db.exec("PRAGMA busy_timeout = 10000");
    db.query("VACUUM INTO ?").run(temp);
  } finally {
    db.close();
  }
  fs.chmodSync(temp, 0o600);
  const check = new Database(temp, { readonly: true });
  let ok: { integrity_check: string };
  try {
    ok = check.query("PRAGMA integrity_check").get() as { integrity_check: string };
  } finally {
    check.close();
  }
  if (ok.integrity_check !== "ok")
    throw new Error(`the copy failed its integrity check: ${ok.integrity_check}`);
  fs.renameSync(temp, dest);
} catch (err) {
  fs.rmSync(temp, { force: true });
  const reason = isDiskFull(err)
    ? "the disk is full; free some space and try again"
    : String((err as Error).message ?? err).split("\n")[0];
  console.error(`Backup failed: ${reason} (nothing was written to ${dest})`);
  process.exit(1);
}
console.log(`Backed up ${config.dbFile} to ${dest} (${fs.statSync(dest).size} bytes)`);
