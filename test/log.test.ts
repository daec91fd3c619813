import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  createLogger,
  dailyLogFile,
  LOG_FILE_PATTERN,
  logFileName,
  pruneOldLogs,
} from "../src/log.ts";

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

describe("the daily file", () => {
  test("a line of a new day goes to that day's file, and the day's first line sweeps old files", () => {
    const d = path.join(dir, "days");
    let now = new Date(2026, 0, 10, 23, 59);
    const file = dailyLogFile({ dir: d, retentionDays: 2, reopenAfterMs: 0, now: () => now });
    fs.writeFileSync(path.join(d, "grapevine-2026-01-08.log"), "old\n");
    file.write("late\n");
    now = new Date(2026, 0, 11, 0, 1);
    file.write("early\n");
    file.close();
    expect(fs.readFileSync(path.join(d, "grapevine-2026-01-10.log"), "utf8")).toBe("late\n");
    expect(fs.readFileSync(path.join(d, "grapevine-2026-01-11.log"), "utf8")).toBe("early\n");
    expect(fs.readdirSync(d)).not.toContain("grapevine-2026-01-08.log");
    expect(fs.statSync(path.join(d, "grapevine-2026-01-11.log")).mode & 0o777).toBe(0o600);
    expect(file.activeFile()).toBe(path.join(d, "grapevine-2026-01-11.log"));
  });

  test("a file that cannot be written is tried again on a later line, appending", () => {
    const d = path.join(dir, "broken");
    const now = new Date(2026, 0, 10, 12, 0);
    const target = path.join(d, "grapevine-2026-01-10.log");
    fs.mkdirSync(target, { recursive: true }); // a folder where the file should be: opening fails
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    let file: ReturnType<typeof dailyLogFile>;
    try {
      file = dailyLogFile({ dir: d, retentionDays: 14, reopenAfterMs: 0, now: () => now });
      file.write("lost\n");
    } finally {
      process.stderr.write = stderr;
    }
    fs.rmdirSync(target);
    file.write("kept\n");
    file.close();
    expect(fs.readFileSync(target, "utf8")).toBe("kept\n");
  });
});
