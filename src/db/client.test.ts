import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase, isUpToDate, openDatabase } from "./client.ts";

const MIGRATIONS = path.resolve(import.meta.dir, "../../migrations");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A data folder and a copy of the migrations folder that the test may change. */
function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-db-"));
  dirs.push(dir);
  const migrations = path.join(dir, "migrations");
  fs.cpSync(MIGRATIONS, migrations, { recursive: true });
  return { file: path.join(dir, "app.db"), migrations };
}

const applied = (file: string) => {
  const sqlite = new Database(file, { readonly: true });
  try {
    return (sqlite.query("SELECT COUNT(*) AS n FROM __drizzle_migrations").get() as { n: number })
      .n;
  } finally {
    sqlite.close();
  }
};

test("a database at the newest migration opens without reading the migration files", () => {
  const { file, migrations } = setup();
  closeDatabase(openDatabase(file, migrations));
  const count = applied(file);
  // The migrator would read (and fail on) every file; an up-to-date database needs only the journal.
  for (const f of fs.readdirSync(migrations)) {
    if (f.endsWith(".sql")) fs.rmSync(path.join(migrations, f));
  }
  const db = openDatabase(file, migrations);
  expect(isUpToDate(db.$client, migrations)).toBe(true);
  closeDatabase(db);
  expect(applied(file)).toBe(count);
});

test("a new migration still runs on a database made by the previous ones", () => {
  const { file, migrations } = setup();
  closeDatabase(openDatabase(file, migrations));
  const count = applied(file);
  const journalFile = path.join(migrations, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as {
    entries: Array<{
      idx: number;
      version: string;
      when: number;
      tag: string;
      breakpoints: boolean;
    }>;
  };
  const last = journal.entries.at(-1)!;
  const tag = `${String(last.idx + 1).padStart(4, "0")}_test_new_table`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  fs.writeFileSync(journalFile, JSON.stringify(journal, null, 2));
  fs.writeFileSync(
    path.join(migrations, `${tag}.sql`),
    "CREATE TABLE `test_new` (`id` integer);\n",
  );

  const before = new Database(file, { readonly: true });
  expect(isUpToDate(before, migrations)).toBe(false);
  before.close();
  const db = openDatabase(file, migrations);
  expect(db.$client.query("SELECT name FROM sqlite_master WHERE name = 'test_new'").get()).toEqual({
    name: "test_new",
  });
  expect(isUpToDate(db.$client, migrations)).toBe(true);
  closeDatabase(db);
  expect(applied(file)).toBe(count + 1);
});

test("a new database gets every migration", () => {
  const { file, migrations } = setup();
  const db = openDatabase(file, migrations);
  closeDatabase(db);
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrations, "meta", "_journal.json"), "utf8"),
  ) as { entries: unknown[] };
  expect(applied(file)).toBe(journal.entries.length);
});
