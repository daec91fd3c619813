/**
 * A real full disk: the real server runs on a small tmpfs as its data
 * folder; the test fills it, checks what a user and an operator see, frees it and checks that
 * everything heals by itself. (Where tmpfs cannot be mounted, the test says so; the same answers
 * are checked through the health service's free-space seam in test/api/storage-faults.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { type AppProcess, startApp } from "../support/app-process.ts";
import { jpegWithGps } from "../support/media-files.ts";
import { mountSmallDisk, type SmallDisk } from "../support/small-disk.ts";
import { waitFor } from "../support/wait.ts";

const DISK_FULL_MESSAGE =
  "The server's disk is full; nothing was saved. Free some space and try again.";

const ROOT = path.resolve(import.meta.dir, "../..");
const MB = 1024 * 1024;
const mounted = mountSmallDisk(24);
const disk: SmallDisk | null = "dir" in mounted ? mounted : null;
if (!disk) {
  console.warn(
    `disk-full.test: a real small disk could not be mounted (${(mounted as { reason: string }).reason}); only the fault-seam tests in test/api/storage-faults.test.ts cover the full disk here`,
  );
}

let app: AppProcess;
let token = "";
const dataDir = disk ? path.join(disk.dir, "data") : "";
const filler = disk ? path.join(disk.dir, "filler") : "";

beforeAll(async () => {
  if (!disk) return;
  app = await startApp({ DATA_DIR: dataDir, DISK_FREE_MIN_MB: "6", LOG_LEVEL: "info" });
  token = await app.register("admin@example.com");
});

afterAll(async () => {
  if (!disk) return;
  app?.proc.kill("SIGTERM");
  await app?.exited;
  disk.unmount();
});

const order = (n: number) => ({
  productname: `Full disk test product ${n}`,
  asin: `B0TEST${String(n).padStart(4, "0")}`,
  reviewtext: `${"A review long enough to need new pages in the log. ".repeat(380)}${n}`,
});

/** POST /api/imap/import with one .eml file (multipart), as the Account page sends it. */
async function importEml(): Promise<{ status: number; body: Record<string, unknown> }> {
  const eml = fs.readFileSync(path.join(ROOT, "test/fixtures/mail/us-ordered-2025-vine.eml"));
  const form = new FormData();
  form.append("files", new Blob([eml], { type: "message/rfc822" }), "vine.eml");
  const res = await fetch(`${app.base}/api/imap/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** POST /api/orders/{id}/review/images with one 1 MB photo. */
async function uploadPhoto(orderId: number) {
  const form = new FormData();
  form.append("images", new Blob([jpegWithGps(MB)], { type: "image/jpeg" }), "photo.jpg");
  const res = await fetch(`${app.base}/api/orders/${orderId}/review/images`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const mediaFiles = () =>
  fs.existsSync(path.join(dataDir, "media"))
    ? (fs.readdirSync(path.join(dataDir, "media"), { recursive: true }) as string[]).filter((f) =>
        f.endsWith(".jpg"),
      )
    : [];

const notifications = async () =>
  (await app.call("GET", "/api/notifications", { token })).body as unknown as {
    message: string;
  }[];
const diskNotes = async () =>
  (await notifications()).filter((n) => n.message.includes("running out of disk space"));
/** The user's order count (X-Total-Count of the list). */
async function orderCount(): Promise<number> {
  const r = await app.call("GET", "/api/orders?size=1", { token });
  const n = Number(r.headers.get("x-total-count"));
  if (r.status !== 200 || !Number.isInteger(n)) throw new Error(`order list: ${r.status}`);
  return n;
}
const leftovers = () => {
  const tmp = path.join(dataDir, "tmp");
  return fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
};
const logText = () =>
  fs
    .readdirSync(path.join(dataDir, "logs"))
    .map((f) => fs.readFileSync(path.join(dataDir, "logs", f), "utf8"))
    .join("");

function backup(dest: string) {
  const r = Bun.spawnSync([process.execPath, "run", "scripts/backup.ts", dest], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", DATA_DIR: dataDir },
  });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

describe.skipIf(!disk)("a full disk (real tmpfs as DATA_DIR)", () => {
  test("low space: health 503 naming the check, ONE notification for the admin", async () => {
    expect((await app.call("GET", "/api/health")).status).toBe(200);
    disk!.fill(filler, 3 * MB); // below DISK_FREE_MIN_MB (6), not yet full
    const h = await app.call("GET", "/api/health");
    expect(h.status).toBe(503);
    expect(String(h.body.error)).toStartWith("Disk space: only ");
    expect(String(h.body.error)).toContain("below DISK_FREE_MIN_MB (6 MB)");
    expect((h.body.checks as Record<string, string>).dataFolder).toBe("ok");
    // Many checks and requests later, still one notification.
    for (let i = 0; i < 5; i++) await app.call("GET", "/api/health");
    await app.call("GET", "/api/orders", { token });
    const notes = await diskNotes();
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toContain("Free some space");
  }, 20_000);

  test("full: writes answer 507 in words, nothing half-written, backup leaves no file", async () => {
    const created = await app.call("POST", "/api/orders", { token, body: order(0) });
    expect(created.status).toBe(201);
    const orderId = Number(created.body.orderid);
    const before = await orderCount();
    disk!.fill(filler); // every byte
    const h = await app.call("GET", "/api/health");
    expect(h.status).toBe(503);
    expect(String(h.body.error)).toContain("Data folder: ");
    expect(String(h.body.error)).toContain("is full");

    // An import's temp file cannot be written: 507, and its temp folder is gone.
    const imp = await importEml();
    expect(imp.status).toBe(507);
    expect(imp.body.error).toBe(DISK_FULL_MESSAGE);
    expect(leftovers()).toEqual([]);

    // A photo upload: 507, no file kept, the order's photo list unchanged.
    const up = await uploadPhoto(orderId);
    expect(up.body.error).toBe(DISK_FULL_MESSAGE);
    expect(up.status).toBe(507);
    expect(up.body.error).toBe(DISK_FULL_MESSAGE);
    expect(leftovers()).toEqual([]);
    expect(mediaFiles()).toEqual([]);
    const after = await app.call("GET", `/api/orders/${orderId}`, { token });
    expect(after.body.reviewimages).toEqual([]);

    // Database writes: SQLite's log has some room left from earlier writes, so keep writing
    // until it is used up. Every write either saved all of its order or answered 507.
    let saved = 0;
    let refused: { status: number; body: Record<string, unknown> } | null = null;
    for (let n = 0; n < 400 && !refused; n++) {
      const r = await app.call("POST", "/api/orders", { token, body: order(n) });
      if (r.status === 201) saved++;
      else refused = r;
    }
    console.info(`disk-full.test: ${saved} orders were saved before the disk refused one`);
    expect(refused?.status).toBe(507);
    expect(refused?.body.error).toBe(DISK_FULL_MESSAGE);
    expect(await orderCount()).toBe(before + saved);
    // stdout never stops: the refusal was logged there.
    await waitFor(() => app.stdout().includes(DISK_FULL_MESSAGE), "the 507 on stdout");

    // The backup script: one line, exit 1, no file (not even a temporary one).
    const dest = path.join(dataDir, "backups", "full.db");
    const b = backup(dest);
    expect(b.code).toBe(1);
    expect(b.err.trim().split("\n")).toHaveLength(1);
    expect(b.err).toContain("Backup failed: the disk is full");
    expect(fs.existsSync(dest)).toBe(false);
    expect(fs.existsSync(`${dest}.part`)).toBe(false);
  }, 60_000);

  test("space freed: health 200, writes and imports work, file logging resumes by itself", async () => {
    fs.rmSync(filler);
    const h = await app.call("GET", "/api/health");
    expect(h.status).toBe(200);
    expect(h.body.checks).toEqual({ database: "ok", dataFolder: "ok", diskSpace: "ok" });

    const before = await orderCount();
    expect((await app.call("POST", "/api/orders", { token, body: order(9999) })).status).toBe(201);
    expect(await orderCount()).toBe(before + 1);
    const imp = await importEml();
    expect(imp.status).toBe(200);
    expect(leftovers()).toEqual([]);
    const orderId = Number(
      (await app.call("POST", "/api/orders", { token, body: order(1) })).body.orderid,
    );
    expect((await uploadPhoto(orderId)).status).toBe(200);
    expect(mediaFiles()).toHaveLength(1);

    // Log lines reach the file again (the file stream reopens after its error).
    let n = 0;
    await waitFor(async () => {
      await app.call("GET", `/api/health?after-full=${++n}`);
      return logText().includes("after-full=");
    }, "a log line written after the disk was freed");

    const dest = path.join(dataDir, "backups", "ok.db");
    const b = backup(dest);
    expect(b.code).toBe(0);
    expect(b.out.trim().split("\n")).toHaveLength(1);
    expect(b.out).toContain(`to ${dest}`);
    expect(fs.existsSync(dest)).toBe(true);
    expect(fs.existsSync(`${dest}.part`)).toBe(false);
    fs.rmSync(path.join(dataDir, "backups"), { recursive: true });
  }, 30_000);

  test("low again after recovering: a second notification, not one per request", async () => {
    expect(await diskNotes()).toHaveLength(1);
    disk!.fill(filler, 3 * MB);
    for (let i = 0; i < 3; i++) expect((await app.call("GET", "/api/health")).status).toBe(503);
    expect(await diskNotes()).toHaveLength(2);
    fs.rmSync(filler);
    expect((await app.call("GET", "/api/health")).status).toBe(200);
  }, 20_000);
});
