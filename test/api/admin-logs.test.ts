/** Admin log files: list, view (tail of big files), download, delete; admin-only; no path tricks. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { LOG_VIEW_MAX_BYTES } from "../../src/features/admin-logs/admin-logs.service.ts";
import { LOG_FILE_PATTERN } from "../../src/log.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call, type ErrorBody, json } from "./helpers.ts";

type LogFileInfo = { name: string; size: number; modified: string };
type LogFileContent = {
  name: string;
  content: string;
  size: number;
  shownBytes: number;
  truncated: boolean;
};

const A = "grapevine-2020-01-02.log";
const B = "grapevine-2020-01-03.log";
const A_TEXT = '{"level":"info","msg":"first"}\n{"level":"warn","msg":"second é ✓"}\n';
const B_TEXT = '{"level":"error","msg":"boom"}\n';
const JUNK = ["notes.txt", "grapevine-latest.log", "grapevine-2020-01-02.log.bak", "app.log"];

let h: Harness;
let admin: { token: string; userid: number };
let user: { token: string; userid: number };
const logPath = (name: string) => path.join(h.config.logDir, name);

beforeEach(async () => {
  h = createHarness();
  admin = await h.register("admin@example.com", "secret1", "Admin");
  user = await h.register("user@example.com", "secret1", "User");
  fs.mkdirSync(h.config.logDir, { recursive: true });
  fs.writeFileSync(logPath(A), A_TEXT);
  fs.writeFileSync(logPath(B), B_TEXT);
  fs.utimesSync(logPath(A), new Date("2020-01-02T23:00:00Z"), new Date("2020-01-02T23:00:00Z"));
  fs.utimesSync(logPath(B), new Date("2020-01-03T23:00:00Z"), new Date("2020-01-03T23:00:00Z"));
  for (const junk of JUNK) fs.writeFileSync(logPath(junk), "junk\n");
  // a directory whose name looks like a log file, and a log file outside the folder
  fs.mkdirSync(logPath("grapevine-2020-01-04.log"));
  fs.writeFileSync(path.join(h.config.dataDir, "grapevine-2020-01-05.log"), "outside\n");
});
afterEach(async () => {
  await h.close();
});

const list = async (token: string) => {
  const res = await h.req("GET", "/api/admin/logs", { token });
  expect(res.status).toBe(200);
  return (await json<{ files: LogFileInfo[] }>(res)).files;
};

/** Every file in the data folder (but the live log and SQLite's -wal/-shm), to prove nothing was deleted. */
const allFiles = () => {
  const active = h.logger.activeFile();
  const skip = active ? path.relative(h.config.dataDir, active) : null;
  return fs
    .readdirSync(h.config.dataDir, { recursive: true })
    .map(String)
    .filter((p) => p !== skip && !p.startsWith("app.db-"))
    .sort();
};

describe("access", () => {
  test("the first registered user is the admin", () => {
    expect(admin.userid).toBe(1);
    expect(user.userid).toBe(2);
  });

  const endpoints: [string, string][] = [
    ["GET", "/api/admin/logs"],
    ["GET", `/api/admin/logs/${A}`],
    ["GET", `/api/admin/logs/${A}/download`],
    ["DELETE", `/api/admin/logs/${A}`],
  ];

  for (const [method, url] of endpoints) {
    test(`${method} ${url}: another user gets 403, nothing is deleted`, async () => {
      const { status, body } = await call(h, method, url, { token: user.token });
      expect(status).toBe(403);
      expect(body).toEqual({
        error: "Only the administrator can do this",
        code: "admin_only",
        values: {},
      });
      expect(fs.readFileSync(logPath(A), "utf8")).toBe(A_TEXT);
    });

    test(`${method} ${url}: no token gets 401, a bad token 401 Invalid token`, async () => {
      const none = await call(h, method, url);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({
        error: "Access token required",
        code: "token_required",
        values: {},
      });
      const bad = await call(h, method, url, { token: "garbage" });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ error: "Invalid token", code: "token_invalid", values: {} });
      expect(fs.readFileSync(logPath(A), "utf8")).toBe(A_TEXT);
    });
  }

  test("unknown admin paths are 403 for a non-admin, 404 for the admin", async () => {
    expect((await call(h, "GET", "/api/admin/other", { token: user.token })).status).toBe(403);
    const res = await call(h, "GET", "/api/admin/other", { token: admin.token });
    expect(res.status).toBe(404);
    expect(typeof res.body.error).toBe("string");
  });
});

describe("GET /api/admin/logs", () => {
  test("lists only grapevine-YYYY-MM-DD.log files, newest first, with name, size, modified", async () => {
    const res = await h.req("GET", "/api/admin/logs", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const files = (await json<{ files: LogFileInfo[] }>(res)).files;

    for (const f of files) {
      expect(Object.keys(f).sort()).toEqual(["modified", "name", "size"]);
      expect(f.name).toMatch(/^grapevine-\d{4}-\d{2}-\d{2}\.log$/);
    }
    const names = files.map((f) => f.name);
    for (const junk of [
      ...JUNK,
      "grapevine-2020-01-04.log",
      "grapevine-2020-01-05.log",
      ".log-history",
    ]) {
      expect(names).not.toContain(junk);
    }
    const a = files.find((f) => f.name === A)!;
    const b = files.find((f) => f.name === B)!;
    expect(a).toEqual({
      name: A,
      size: Buffer.byteLength(A_TEXT),
      modified: "2020-01-02T23:00:00.000Z",
    });
    expect(b.size).toBe(Buffer.byteLength(B_TEXT));
    expect(names.indexOf(B)).toBeLessThan(names.indexOf(A));
    const mtimes = files.map((f) => f.modified);
    expect([...mtimes].sort().reverse()).toEqual(mtimes);
  });

  test("an empty or missing log folder lists nothing", async () => {
    fs.rmSync(h.config.logDir, { recursive: true, force: true });
    expect(await list(admin.token)).toEqual([]);
  });
});

describe("GET /api/admin/logs/{name}", () => {
  test("returns the whole content of a small file", async () => {
    const res = await h.req("GET", `/api/admin/logs/${A}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await json<LogFileContent>(res)).toEqual({
      name: A,
      content: A_TEXT,
      size: Buffer.byteLength(A_TEXT),
      shownBytes: Buffer.byteLength(A_TEXT),
      truncated: false,
    });
  });

  test("a file over 512 KB returns only its tail, from a line start to the last line", async () => {
    const name = "grapevine-2020-02-01.log";
    const lines: string[] = [];
    for (let i = 1; i <= 8000; i++) {
      lines.push(`{"n":${i},"msg":"line ${String(i).padStart(6, "0")} ${"é✓x".repeat(i % 30)}"}`);
    }
    const text = `${lines.join("\n")}\n`;
    fs.writeFileSync(logPath(name), text);
    const size = Buffer.byteLength(text);
    expect(size).toBeGreaterThan(LOG_VIEW_MAX_BYTES);

    const { status, body } = await call<LogFileContent>(h, "GET", `/api/admin/logs/${name}`, {
      token: admin.token,
    });
    expect(status).toBe(200);
    expect(body.truncated).toBe(true);
    expect(body.size).toBe(size);
    expect(body.content.length).toBeLessThan(text.length);
    expect(body.shownBytes).toBe(Buffer.byteLength(body.content));
    expect(body.shownBytes).toBeLessThanOrEqual(LOG_VIEW_MAX_BYTES);
    expect(body.shownBytes).toBeGreaterThan(LOG_VIEW_MAX_BYTES - 1000);
    expect(body.content.endsWith(`${lines.at(-1)}\n`)).toBe(true);
    expect(body.content).not.toContain("\uFFFD");
    // it is an exact suffix of the file that starts right after a newline
    expect(text.endsWith(body.content)).toBe(true);
    expect(text[text.length - body.content.length - 1]).toBe("\n");
    expect(body.content.startsWith('{"n":')).toBe(true);
  });

  test("a file of exactly 512 KB is shown whole", async () => {
    const name = "grapevine-2020-02-02.log";
    const text = `${"a".repeat(LOG_VIEW_MAX_BYTES - 1)}\n`;
    fs.writeFileSync(logPath(name), text);
    const { body } = await call<LogFileContent>(h, "GET", `/api/admin/logs/${name}`, {
      token: admin.token,
    });
    expect(body.truncated).toBe(false);
    expect(body.content).toBe(text);
  });
});

describe("GET /api/admin/logs/{name}/download", () => {
  test("streams the whole file byte for byte as an attachment", async () => {
    const name = "grapevine-2020-03-01.log";
    const bytes = Buffer.concat([
      Buffer.from(`${"x".repeat(700 * 1024)}\n`),
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
      Buffer.from("last line é ✓\n"),
    ]);
    fs.writeFileSync(logPath(name), bytes);

    const res = await h.req("GET", `/api/admin/logs/${name}/download`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toContain("text/plain");
    const got = Buffer.from(await res.arrayBuffer());
    expect(got.length).toBe(bytes.length);
    expect(got.equals(bytes)).toBe(true);
  });
});

describe("DELETE /api/admin/logs/{name}", () => {
  test("removes the file; it leaves the listing and can no longer be read", async () => {
    const { status, body } = await call<{ success: boolean; message: string; emptied: boolean }>(
      h,
      "DELETE",
      `/api/admin/logs/${A}`,
      { token: admin.token },
    );
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, message: "File Deleted", emptied: false });
    expect(fs.existsSync(logPath(A))).toBe(false);
    expect(fs.existsSync(logPath(B))).toBe(true);
    expect((await list(admin.token)).map((f) => f.name)).not.toContain(A);

    const again = await call(h, "GET", `/api/admin/logs/${A}`, { token: admin.token });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("Log file not found");
    const twice = await call(h, "DELETE", `/api/admin/logs/${A}`, { token: admin.token });
    expect(twice.status).toBe(404);
  });

  test("the file being written now is emptied, not removed", async () => {
    const deadline = Date.now() + 3000;
    while (!h.logger.activeFile() && Date.now() < deadline) await Bun.sleep(20);
    const active = h.logger.activeFile();
    expect(active).not.toBeNull();
    fs.appendFileSync(active!, '{"msg":"something"}\n');
    const name = path.basename(active!);

    const { status, body } = await call<{ emptied: boolean }>(
      h,
      "DELETE",
      `/api/admin/logs/${name}`,
      {
        token: admin.token,
      },
    );
    expect(status).toBe(200);
    expect(body.emptied).toBe(true);
    expect(fs.existsSync(active!)).toBe(true);
    expect(fs.statSync(active!).size).toBe(0);
  });
});

describe("names that are not in the listing", () => {
  const tricks = [
    "..%2Fapp.db",
    "%2E%2E%2Fapp.db",
    "..%2F..%2F..%2Fetc%2Fpasswd",
    "%252E%252E%252Fapp.db",
    "..%5Capp.db",
    "notes.txt",
    "grapevine-latest.log",
    "grapevine-2020-01-02.log.bak",
    "grapevine-2020-01-02.log%00",
    "grapevine-2020-01-02.log%2F",
    "grapevine-2020-01-04.log",
    "..%2Fgrapevine-2020-01-05.log",
    "nope.log",
    "grapevine-2099-01-01.log",
  ];

  for (const name of tricks) {
    test(`${name}: view, download and delete are 404 and nothing is deleted`, async () => {
      const before = allFiles();
      expect(before).toContain("app.db");
      for (const [method, url] of [
        ["GET", `/api/admin/logs/${name}`],
        ["GET", `/api/admin/logs/${name}/download`],
        ["DELETE", `/api/admin/logs/${name}`],
      ] as const) {
        const res = await h.req(method, url, { token: admin.token });
        expect(res.status).toBe(404);
        const body = (await res.json()) as ErrorBody;
        expect(typeof body.error).toBe("string");
        expect(JSON.stringify(body)).not.toContain("SQLite");
      }
      expect(allFiles()).toEqual(before);
      expect(fs.existsSync(h.config.dbFile)).toBe(true);
      expect(fs.readFileSync(logPath("notes.txt"), "utf8")).toBe("junk\n");
      // and the database still works
      expect((await h.req("GET", "/api/user/data", { token: admin.token })).status).toBe(200);
    });
  }

  test("the pattern the server uses is the documented one", () => {
    expect(LOG_FILE_PATTERN.test(A)).toBe(true);
    expect(LOG_FILE_PATTERN.test("grapevine-2020-01-02.log.1")).toBe(false);
  });
});
