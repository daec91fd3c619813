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
      maxFiles: opts.retentionDays,
      history: ".log-history",
    });
    file.on("open", (filename: string) => {
      active = filename;
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

/** Replaces the value of any `token=` query parameter so secrets never reach a log line. */
export function redactUrl(pathAndQuery: string): string {
  return pathAndQuery.replace(/([?&]token=)[^&#]*/gi, "$1[redacted]");
}
