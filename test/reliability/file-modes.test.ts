/**
 * The data folder is owner-only. The real server creates the database, its WAL
 * and SHM, the logs and its folders 0600/0700, and at start fixes what an older version left
 * readable by others.
 */
import { afterAll, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApp } from "../support/app-process.ts";
import { jpegWithGps } from "../support/media-files.ts";
import { waitFor } from "../support/wait.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Every path under `dir` (and `dir` itself as "."), with its permission bits in octal. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { ".": (fs.statSync(dir).mode & 0o777).toString(8) };
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    const p = path.join(e.parentPath, e.name);
    out[path.relative(dir, p)] = (fs.lstatSync(p).mode & 0o777).toString(8);
  }
  return out;
}
const expectPrivate = (m: Record<string, string>) => {
  for (const [p, mode] of Object.entries(m)) expect(`${p} ${mode}`).toMatch(/ (600|700)$/);
};

async function run(dataDir: string) {
  const app = await startApp({ DATA_DIR: dataDir });
  // The WAL and SHM exist while the server runs; a write makes sure of it. A review photo makes
  // the media folders.
  const token = await app.register(`modes${Date.now()}@example.com`);
  const created = await app.call("POST", "/api/orders", {
    token,
    body: { productname: "Modes lamp", asin: "B0MODES001" },
  });
  const form = new FormData();
  form.append("images", new Blob([jpegWithGps()], { type: "image/jpeg" }), "a.jpg");
  const up = await fetch(`${app.base}/api/orders/${created.body.orderid}/review/images`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(up.status).toBe(200);
  await waitFor(() => fs.readdirSync(path.join(dataDir, "logs")).length > 0, "the log file");
  const m = modes(dataDir);
  app.proc.kill("SIGTERM");
  expect(await app.exited).toBe(0);
  return m;
}

test("a fresh data folder: database, WAL, SHM, logs 0600; folders 0700", async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-modes-"));
  dirs.push(parent);
  const dataDir = path.join(parent, "data");
  const m = await run(dataDir);
  expect(m["app.db"]).toBe("600");
  expect(m["app.db-wal"]).toBe("600");
  expect(m["app.db-shm"]).toBe("600");
  expect(m.logs).toBe("700");
  expect(m["."]).toBe("700");
  expect(m.media).toBe("700");
  expect(Object.keys(m).filter((p) => p.startsWith("media/") && p.endsWith(".jpg"))).toHaveLength(
    1,
  );
  expectPrivate(m);
}, 30_000);

test("files and folders an older version left readable by others are fixed at start", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-modes-"));
  dirs.push(dataDir);
  await run(dataDir);
  // As the old version left them: 0644 files, 0755 folders, including media.
  fs.mkdirSync(path.join(dataDir, "media", "1", "7"), { recursive: true });
  fs.writeFileSync(path.join(dataDir, "media", "1", "7", "photo.jpg"), "x");
  fs.mkdirSync(path.join(dataDir, "backups"));
  fs.writeFileSync(path.join(dataDir, "backups", "app-old.db"), "x");
  for (const p of Object.keys(modes(dataDir))) {
    const full = path.join(dataDir, p);
    fs.chmodSync(full, fs.statSync(full).isDirectory() ? 0o755 : 0o644);
  }
  expect(modes(dataDir)["app.db"]).toBe("644");

  const m = await run(dataDir);
  expect(m["app.db"]).toBe("600");
  expect(m["app.db-wal"]).toBe("600");
  expect(m["media/1/7/photo.jpg"]).toBe("600");
  expect(m["media/1/7"]).toBe("700");
  expect(m["backups/app-old.db"]).toBe("600");
  expectPrivate(m);
}, 30_000);
