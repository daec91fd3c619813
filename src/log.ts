/**
 * One logger for the process: pino writing JSON lines to stdout and to a daily file in
 * DATA_DIR/logs (grapevine-YYYY-MM-DD.log, kept LOG_RETENTION_DAYS days by rotating-file-stream).
 * Scopes get child loggers: `log.child({ scope: "http" })`.
 */
import fs from "node:fs";
import pino, { type Logger } from "pino";
import { createStream, type RotatingFileStream } from "rotating-file-stream";

export type { Logger };

export const LOG_FILE_PATTERN = /^grapevine-\d{4}-\d{2}-\d{2}\.log$/;

function pad(n: number) {
  return String(n).padStart(2, "0");
}

/** The log file name for a day (local server time, the day the file was opened). */
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
}): AppLogger {
  const streams: pino.StreamEntry[] = [];
  if (opts.stdout !== false)
    streams.push({ level: opts.level as pino.Level, stream: process.stdout });
  let file: RotatingFileStream | null = null;
  let active: string | null = null;
  if (opts.logDir) {
    fs.mkdirSync(opts.logDir, { recursive: true });
    file = createStream((time) => logFileName(time instanceof Date ? time : new Date()), {
      path: opts.logDir,
      interval: "1d",
      intervalBoundary: true,
      immutable: true,
    });
    // Retention is ours, not the library's: its maxFiles only knows files it rotated itself in
    // this run, so files from before a restart would stay forever. Each new day's file sweeps.
    file.on("open", (filename: string) => {
      active = filename;
      if (opts.logDir) pruneOldLogs(opts.logDir, opts.retentionDays);
    });
    file.on("error", (err) => process.stderr.write(`log file error: ${String(err)}\n`));
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
    activeFile: () => active,
    close: () =>
      new Promise<void>((resolve) => {
        if (!file) return resolve();
        file.end(() => resolve());
      }),
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
