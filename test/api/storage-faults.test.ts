/**
 * Storage faults answered in words, in-process: SQLite's own
 * SQLITE_FULL (the database reached PRAGMA max_page_count, which SQLite reports exactly as a full
 * disk), the free-space check through the health service's seam, and the write lock held by a
 * second connection. The same faults against the real server on a real small disk and with the
 * lock held by another process: test/reliability/.
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { isDatabaseBusy, isDiskFull, storageFault } from "../../src/util/errors.ts";
import { createHarness, type Harness } from "../harness.ts";

const DISK_FULL_MESSAGE =
  "The server's disk is full; nothing was saved. Free some space and try again.";
const DB_BUSY_MESSAGE = "The database is busy; try again";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const MB = 1024 * 1024;
const order = (n: number) => ({
  productname: `Product ${n}`,
  asin: `B0FAULT${String(n).padStart(3, "0")}`,
  reviewtext: "x".repeat(15_000),
});
const count = async (token: string) =>
  Number((await h.req("GET", "/api/orders?size=1", { token })).headers.get("x-total-count"));

describe("storage faults are recognised by their codes", () => {
  test("ENOSPC, EDQUOT and SQLITE_FULL (also wrapped as a cause) are a full disk", () => {
    expect(isDiskFull({ code: "ENOSPC" })).toBe(true);
    expect(isDiskFull({ code: "EDQUOT" })).toBe(true);
    expect(isDiskFull(new Error("query failed", { cause: { code: "SQLITE_FULL" } }))).toBe(true);
    expect(isDiskFull({ code: "EACCES" })).toBe(false);
    expect(isDatabaseBusy({ code: "SQLITE_BUSY_SNAPSHOT" })).toBe(true);
    expect(storageFault(new Error("other"))).toBeNull();
    expect(storageFault({ code: "ENOSPC" })?.status).toBe(507);
  });
});

describe("the database cannot grow (SQLITE_FULL)", () => {
  test("writes answer 507 with the sentence; nothing half-saved; writes work again after", async () => {
    h = createHarness();
    const u = await h.register();
    const sqlite = h.db.$client;
    const pages = (sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    sqlite.exec(`PRAGMA max_page_count = ${pages}`);
    let saved = 0;
    let refused: Response | null = null;
    for (let n = 0; n < 200 && !refused; n++) {
      const r = await h.req("POST", "/api/orders", { token: u.token, body: order(n) });
      if (r.status === 201) saved++;
      else refused = r;
    }
    expect(refused?.status).toBe(507);
    // Reads still work on a full database.
    h.db.$client.exec("PRAGMA max_page_count = 1073741823");
    h.db.$client.exec("UPDATE sessions SET last_used_at = '2000-01-01T00:00:00.000Z'");
    sqlite.exec(
      `PRAGMA max_page_count = ${(sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count}`,
    );
    expect((await h.req("GET", "/api/orders", { token: u.token })).status).toBe(200);
    expect(((await refused!.json()) as { error: string }).error).toBe(DISK_FULL_MESSAGE);
    expect(await count(u.token)).toBe(saved);

    sqlite.exec("PRAGMA max_page_count = 1073741823");
    expect((await h.req("POST", "/api/orders", { token: u.token, body: order(999) })).status).toBe(
      201,
    );
    expect(await count(u.token)).toBe(saved + 1);
  });
});

describe("GET /api/health and the free-space watch (free-space seam)", () => {
  test("503 naming the check below DISK_FREE_MIN_MB, 200 again above; one admin notification per fall", async () => {
    let free = 500 * MB;
    h = createHarness({ DISK_FREE_MIN_MB: "200" }, { health: { freeBytes: () => free } });
    const admin = await h.register();
    const other = await h.register();
    const diskNotes = async (token: string) =>
      (
        (await (await h.req("GET", "/api/notifications", { token })).json()) as {
          message: string;
        }[]
      ).filter((n) => n.message.includes("running out of disk space"));

    const ok = await h.req("GET", "/api/health");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { freeMb: number }).freeMb).toBe(500);

    free = 150 * MB;
    for (let i = 0; i < 4; i++) {
      const res = await h.req("GET", "/api/health");
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; error: string; checks: object };
      expect(body.status).toBe("error");
      expect(body.error).toBe(
        `Disk space: only 150 MB free in ${h.config.dataDir}, below DISK_FREE_MIN_MB (200 MB)`,
      );
      expect(body.checks).toMatchObject({ database: "ok", dataFolder: "ok" });
    }
    h.services.health.noteDiskFull();
    expect(await diskNotes(admin.token)).toHaveLength(1);
    expect(await diskNotes(other.token)).toHaveLength(0);

    free = 250 * MB;
    expect((await h.req("GET", "/api/health")).status).toBe(200);
    free = 10 * MB;
    expect((await h.req("GET", "/api/health")).status).toBe(503);
    expect(await diskNotes(admin.token)).toHaveLength(2);
  });
});

describe("another connection holds the write lock", () => {
  test("reads answer at once; a write waits, then 503 with Retry-After; nothing lost", async () => {
    h = createHarness();
    const u = await h.register();
    // The session was last used long ago: this read would extend it (a write), and must not
    // fail for it.
    h.db.$client.exec("UPDATE sessions SET last_used_at = '2000-01-01T00:00:00.000Z'");
    const other = new Database(h.config.dbFile);
    other.exec("BEGIN IMMEDIATE");
    try {
      expect((await h.req("GET", "/api/orders", { token: u.token })).status).toBe(200);
      expect((await h.req("GET", "/api/health")).status).toBe(200);
      const res = await h.req("POST", "/api/orders", { token: u.token, body: order(1) });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(((await res.json()) as { error: string }).error).toBe(DB_BUSY_MESSAGE);
      other.exec("INSERT INTO notifications (user_id, level, message) VALUES (1, 'other', 'held')");
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    expect((await h.req("POST", "/api/orders", { token: u.token, body: order(2) })).status).toBe(
      201,
    );
    expect(await count(u.token)).toBe(1);
    // The other connection's write is kept too.
    const notes = (await (await h.req("GET", "/api/notifications", { token: u.token })).json()) as {
      message: string;
    }[];
    expect(notes.map((n) => n.message)).toContain("held");
  }, 15_000);
});
