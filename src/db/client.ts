/** Opens the SQLite file with the pragmas we rely on and applies pending migrations. */
import { Database } from "bun:sqlite";
import fs from "node:fs";
import path from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import * as schema from "./schema.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export function openDatabase(file: string, migrationsDir: string): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  const db = drizzle({ client: sqlite, schema });
  migrate(db, { migrationsFolder: migrationsDir });
  return db;
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
