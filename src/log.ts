/**
 * One logger for the process: pino writing JSON lines to stdout and to a daily file in
 * DATA_DIR/logs (grapevine-YYYY-MM-DD.log, kept LOG_RETENTION_DAYS days). Scopes get child
 * loggers: `log.child({ scope: "http" })`.
 *
 * The daily file is ours (`dailyLogFile`), not a rotation library's: the one we used brought
 * node:zlib and streams, 7.5 MB resident in an idle server for a feature we never used
 * (compression; bench/startup.bench.ts prints module costs), and ended for good on its first
 * write error, so we wrapped it anyway. Lines are appended with one write each; a new day's first
 * line opens that day's file and sweeps old ones.
 */
import fs from "node:fs";
import path from "node:path";
import pino, { type Logger } from "pino";

export type { Logger };

export const LOG_FILE_PATTERN = /^grapevine-\d{4}-\d{2}-\d{2}\.log$/;

function pad(n: number) {
  return String(n).padStart(2, "0");
}

/** The log file name for a day (local server time, the day the line was written). */
export function logFileName(time: Date): string {
  return `grapevine-${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}.log`;
}

export type AppLogger = {
  log: Logger;
  /** Absolute path of the file being written now, or null when file logging is off. */
  activeFile: () => string | null;
  close: () => Promise<void>;
};

export function createLogger(opts: {
  level: string;
  logDir: string | null;
  retentionDays: number;
  stdout?: boolean;
  /** After a write to the log file failed, the next line tries again after this long (ms). */
  reopenAfterMs?: number;
  /** The clock that decides the day of a line (tests). */
  now?: () => Date;
}): AppLogger {
  const streams: pino.StreamEntry[] = [];
  if (opts.stdout !== false)
    streams.push({ level: opts.level as pino.Level, stream: process.stdout });
  let file: ReturnType<typeof dailyLogFile> | null = null;
  if (opts.logDir) {
    file = dailyLogFile({
      dir: opts.logDir,
      retentionDays: opts.retentionDays,
      reopenAfterMs: opts.reopenAfterMs ?? LOG_REOPEN_AFTER_MS,
      now: opts.now ?? (() => new Date()),
    });
    streams.push({ level: opts.level as pino.Level, stream: file });
  }
  const log = pino(
    {
      level: opts.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(streams),
  );
  return {
    log,
    activeFile: () => file?.activeFile() ?? null,
    close: async () => file?.close(),
  };
}

export const LOG_REOPEN_AFTER_MS = 2000;

/**
 * The day's log file as a pino destination (0600, appended), opened at once. A line of a new day
 * opens that day's file; each day's file sweeps files older than the retention. A write that fails (ENOSPC on a full
 * disk) closes the file: lines go to stdout only meanwhile, and the first line `reopenAfterMs`
 * later opens the file again (appending). A failing reopen waits as long again.
 */
export function dailyLogFile(opts: {
  dir: string;
  retentionDays: number;
  reopenAfterMs: number;
  now: () => Date;
}) {
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  let fd: number | null = null;
  let name: string | null = null;
  let failedAt = Number.NEGATIVE_INFINITY;
  let closed = false;

  const closeFd = () => {
    if (fd === null) return;
    try {
      fs.closeSync(fd);
    } catch {
      // already unusable
    }
    fd = null;
  };
  const fail = (err: unknown) => {
    process.stderr.write(`log file error: ${String(err)}; lines go to stdout only for now\n`);
    closeFd();
    failedAt = Date.now();
  };
  const open = (day: string) => {
    closeFd();
    const newDay = day !== name;
    fd = fs.openSync(path.join(opts.dir, day), "a", 0o600);
    name = day;
    if (newDay) pruneOldLogs(opts.dir, opts.retentionDays, opts.now());
  };

  try {
    open(logFileName(opts.now()));
  } catch (err) {
    fail(err);
  }

  return {
    write(line: string) {
      if (closed) return;
      const day = logFileName(opts.now());
      if (fd === null || day !== name) {
        if (fd === null && Date.now() - failedAt < opts.reopenAfterMs) return;
        try {
          open(day);
        } catch (err) {
          return fail(err);
        }
      }
      try {
        fs.writeSync(fd as number, line);
      } catch (err) {
        fail(err);
      }
    },
    activeFile: () => (name ? path.join(opts.dir, name) : null),
    close() {
      closed = true;
      closeFd();
    },
  };
}

/**
 * Removes daily log files whose day is more than `retentionDays` before today (by the date in
 * the name, so copying or touching a file does not keep it alive). Returns the removed names.
 */
export function pruneOldLogs(logDir: string, retentionDays: number, now = new Date()): string[] {
  const cutoff = new Date(now.getFullYear(), now.getMonth(), now.getDate() - retentionDays + 1);
  const oldest = logFileName(cutoff);
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = fs.readdirSync(logDir);
  } catch {
    return removed;
  }
  for (const name of names) {
    // Names sort by date: grapevine-YYYY-MM-DD.log
    if (LOG_FILE_PATTERN.test(name) && name < oldest) {
      try {
        fs.rmSync(`${logDir}/${name}`, { force: true });
        removed.push(name);
      } catch {
        // next sweep
      }
    }
  }
  return removed;
}

/**
 * Replaces the values of query parameters that carry secrets so they never reach a log line:
 * `token=` (the event stream), and OAuth's `code=` and `state=` (the Google callback) and
 * `access_token=`/`refresh_token=`/`id_token=`.
 */
export function redactUrl(pathAndQuery: string): string {
  return pathAndQuery.replace(
    /([?&](?:token|code|state|access_token|refresh_token|id_token)=)[^&#]*/gi,
    "$1[redacted]",
  );
}
