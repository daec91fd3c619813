import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLogger, LOG_FILE_PATTERN, logFileName, pruneOldLogs } from "../src/log.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-log-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("log retention", () => {
  test("keeps today and the previous retentionDays-1 days, removes older files, ignores others", () => {
    const d = path.join(dir, "prune");
    fs.mkdirSync(d);
    const now = new Date(2026, 0, 10, 12, 0); // 10 Jan 2026, local time
    const names = [
      "grapevine-2025-12-30.log",
      "grapevine-2026-01-07.log",
      "grapevine-2026-01-08.log",
      "grapevine-2026-01-09.log",
      "grapevine-2026-01-10.log",
      "notes.txt",
      "grapevine-old.log",
    ];
    for (const n of names) fs.writeFileSync(path.join(d, n), "x\n");
    const removed = pruneOldLogs(d, 3, now);
    expect(removed.sort()).toEqual(["grapevine-2025-12-30.log", "grapevine-2026-01-07.log"]);
    expect(fs.readdirSync(d).sort()).toEqual([
      "grapevine-2026-01-08.log",
      "grapevine-2026-01-09.log",
      "grapevine-2026-01-10.log",
      "grapevine-old.log",
      "notes.txt",
    ]);
  });

  test("starting the logger sweeps files left from before a restart", async () => {
    const d = path.join(dir, "start");
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, "grapevine-2001-01-01.log"), "ancient\n");
    const logger = createLogger({ level: "info", logDir: d, retentionDays: 14, stdout: false });
    logger.log.info("hello");
    await Bun.sleep(50);
    await logger.close();
    const files = fs.readdirSync(d);
    expect(files).not.toContain("grapevine-2001-01-01.log");
    expect(files).toContain(logFileName(new Date()));
    expect(fs.readFileSync(path.join(d, logFileName(new Date())), "utf8")).toContain(
      '"msg":"hello"',
    );
  });

  test("file names follow the pattern the admin screen lists", () => {
    expect(LOG_FILE_PATTERN.test(logFileName(new Date(2026, 10, 21)))).toBe(true);
    expect(logFileName(new Date(2026, 10, 21))).toBe("grapevine-2026-11-21.log");
  });
});
