/**
 * Starts the real server the way `npm start` does (bun run src/main.ts) on a temp data folder and a
 * free port, and checks what an operator would notice: it answers, it stops cleanly on SIGTERM, and
 * bad configuration stops it with one line.
 */
import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-boot-"));
  dirs.push(d);
  return d;
}

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

function start(env: Record<string, string>) {
  return Bun.spawn([process.execPath, "run", "src/main.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function waitHealthy(url: string, ms = 10_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    await Bun.sleep(20);
  }
  throw new Error(`${url} did not become healthy within ${ms} ms`);
}

describe("boot", () => {
  test("starts on a fresh data folder, serves the API and the app, stops cleanly on SIGTERM", async () => {
    const dataDir = tempDir();
    const port = freePort();
    const proc = start({ DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" });
    try {
      const base = `http://127.0.0.1:${port}`;
      const health = await waitHealthy(`${base}/api/health`);
      expect(await health.json()).toMatchObject({ status: "ok" });

      // The database, its migrations and the log file exist in the data folder.
      expect(fs.existsSync(path.join(dataDir, "app.db"))).toBe(true);
      const logs = fs.readdirSync(path.join(dataDir, "logs"));
      expect(logs.some((f) => /^grapevine-\d{4}-\d{2}-\d{2}\.log$/.test(f))).toBe(true);

      const reg = await fetch(`${base}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          email: "boot@example.com",
          password: "secret1",
          displayname: "Boot",
        }),
      });
      expect(reg.status).toBe(201);

      // Every non-API path is the app (dist/ is built by `npm test` before this runs).
      const page = await fetch(`${base}/orders/12/edit`);
      if (fs.existsSync(path.join(ROOT, "dist", "index.html"))) {
        expect(page.status).toBe(200);
        expect(page.headers.get("cache-control")).toBe("no-cache");
        expect(await page.text()).toContain('<div id="root">');
      }

      // A request line with the token redacted reached the log file.
      await fetch(`${base}/api/user/data?token=supersecret`);
      // The log line is written asynchronously: wait for it (bounded) rather than a fixed sleep.
      const logFile = path.join(dataDir, "logs", logs[0]!);
      let logText = "";
      for (const until = Date.now() + 5000; Date.now() < until; await Bun.sleep(20)) {
        logText = fs.readFileSync(logFile, "utf8");
        if (logText.includes("/api/user/data?token=")) break;
      }
      expect(logText).toContain('"path":"/api/user/data?token=[redacted]"');
      expect(logText).not.toContain("supersecret");
    } finally {
      proc.kill("SIGTERM");
    }
    const code = await Promise.race([proc.exited, Bun.sleep(8000).then(() => "timeout")]);
    expect(code).toBe(0);
    const out = await new Response(proc.stdout).text();
    expect(out).toContain('"msg":"stopped"');
    // The database was closed: SQLite removes the WAL file when the last connection closes.
    expect(fs.existsSync(path.join(dataDir, "app.db-wal"))).toBe(false);
  }, 20_000);

  test("invalid configuration stops the start with one line naming the variable", async () => {
    const proc = start({ DATA_DIR: tempDir(), PORT: "abc" });
    expect(await proc.exited).toBe(1);
    const err = (await new Response(proc.stderr).text()).trim();
    expect(err.split("\n")).toHaveLength(1);
    expect(err).toContain("PORT");
    expect(err).toContain('"abc"');
  });

  test("a data folder that cannot be written stops the start with a clear message", async () => {
    const parent = tempDir();
    const file = path.join(parent, "not-a-folder");
    fs.writeFileSync(file, "x");
    const proc = start({ DATA_DIR: file, PORT: String(freePort()) });
    expect(await proc.exited).not.toBe(0);
    const err = await new Response(proc.stderr).text();
    expect(err.trim().split("\n")).toHaveLength(1);
    expect(err).toContain("Cannot use the data folder");
    expect(err).toContain("DATA_DIR");
  });
});
