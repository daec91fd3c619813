/**
 * Opens the SQLite file with the pragmas we rely on and applies pending migrations (drizzle's
 * migrator, only when the newest migration of the folder is not applied yet).
 */
import { Database } from "bun:sqlite";
import fs from "node:fs";
import path from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { isDatabaseBusy } from "../util/errors.ts";
import * as schema from "./schema.ts";

/**
 * How long one statement waits inside SQLite for a lock another process holds. bun:sqlite waits
 * synchronously, blocking the event loop, so this stays short; requests that write wait for the
 * lock asynchronously first (waitForWriteLock, used by src/http/middleware/db-write-gate.ts).
 */
export const DB_BUSY_TIMEOUT_MS = 200;

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export function openDatabase(file: string, migrationsDir: string): Db {
  if (file !== ":memory:") {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Owner-only: SQLite gives the WAL and SHM files the mode of the database file.
    fs.closeSync(fs.openSync(file, "a", 0o600));
    fs.chmodSync(file, 0o600);
  }
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // Migrations at start may wait longer for an outside writer: nothing is being served yet.
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  const db = drizzle({ client: sqlite, schema });
  if (!isUpToDate(sqlite, migrationsDir)) migrate(db, { migrationsFolder: migrationsDir });
  sqlite.exec(`PRAGMA busy_timeout = ${DB_BUSY_TIMEOUT_MS}`);
  return db;
}

/**
 * True when the database has applied the newest migration the folder's journal lists, by the
 * migrator's own rule (a migration runs when its `when` is after the newest `created_at` in
 * `__drizzle_migrations`). The migrator reads and hashes every migration file each time it is
 * called: at most starts there is nothing to apply, and that reading stayed resident (0.4 MB).
 */
export function isUpToDate(sqlite: Database, migrationsDir: string): boolean {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsDir, "meta", "_journal.json"), "utf8"),
  ) as { entries: Array<{ when: number }> };
  const newest = Math.max(...journal.entries.map((e) => e.when));
  const table = sqlite
    .query(
      "SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'",
    )
    .get();
  if (!table) return false;
  const applied = sqlite
    .query("SELECT created_at AS at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1")
    .get() as { at: number | string } | null;
  return applied !== null && Number(applied.at) >= newest;
}

/** Takes and at once releases the write lock without waiting: false when another process has it. */
function tryWriteLock(sqlite: Database): boolean {
  sqlite.exec("PRAGMA busy_timeout = 0");
  try {
    sqlite.exec("BEGIN IMMEDIATE");
    sqlite.exec("ROLLBACK");
    return true;
  } catch (err) {
    if (isDatabaseBusy(err)) return false;
    throw err;
  } finally {
    sqlite.exec(`PRAGMA busy_timeout = ${DB_BUSY_TIMEOUT_MS}`);
  }
}

/**
 * Waits until the write lock is free, trying every `stepMs` with the event loop free in between;
 * false after `timeoutMs`. True at once when this connection is inside a transaction already.
 */
export async function waitForWriteLock(
  db: Db,
  opts: { timeoutMs: number; stepMs: number },
): Promise<boolean> {
  const sqlite = db.$client;
  const until = Date.now() + opts.timeoutMs;
  for (;;) {
    if (sqlite.inTransaction || tryWriteLock(sqlite)) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, opts.stepMs));
  }
}

/** Cheap liveness check for the health endpoint. */
export function pingDatabase(db: Db): boolean {
  try {
    return db.$client.query("SELECT 1 AS ok").get() !== null;
  } catch {
    return false;
  }
}

export function closeDatabase(db: Db) {
  try {
    db.$client.exec("PRAGMA optimize");
  } catch {
    // closing anyway
  }
  db.$client.close();
}
