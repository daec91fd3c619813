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
  /** After a write to the log file failed, the next line tries a new file after this long (ms). */
  reopenAfterMs?: number;
}): AppLogger {
  const streams: pino.StreamEntry[] = [];
  if (opts.stdout !== false)
    streams.push({ level: opts.level as pino.Level, stream: process.stdout });
  let file: ReturnType<typeof resilientFile> | null = null;
  if (opts.logDir) {
    const logDir = opts.logDir;
    fs.mkdirSync(logDir, { recursive: true, mode: 0o700 });
    file = resilientFile(() => {
      const stream = createStream((time) => logFileName(time instanceof Date ? time : new Date()), {
        path: logDir,
        interval: "1d",
        intervalBoundary: true,
        immutable: true,
        mode: 0o600,
      });
      // Retention is ours, not the library's: its maxFiles only knows files it rotated itself in
      // this run, so files from before a restart would stay forever. Each new day's file sweeps.
      stream.on("open", () => pruneOldLogs(logDir, opts.retentionDays));
      return stream;
    }, opts.reopenAfterMs ?? LOG_REOPEN_AFTER_MS);
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
    close: () => file?.close() ?? Promise.resolve(),
  };
}

export const LOG_REOPEN_AFTER_MS = 2000;

/**
 * The log file as a pino destination that survives write errors. rotating-file-stream ends for
 * good on its first error (ENOSPC on a full disk), so on an error the stream is dropped; lines go
 * to stdout only meanwhile, and the first line `reopenAfterMs` later opens a new stream (on the
 * same day's file, appending). A failing reopen waits as long again.
 */
function resilientFile(open: () => RotatingFileStream, reopenAfterMs: number) {
  let stream: RotatingFileStream | null = null;
  let active: string | null = null;
  let failedAt = 0;
  let closed = false;
  const start = () => {
    const s = open();
    s.on("open", (filename: string) => {
      active = filename;
    });
    s.on("error", (err) => {
      process.stderr.write(`log file error: ${String(err)}; lines go to stdout only for now\n`);
      if (stream === s) {
        stream = null;
        failedAt = Date.now();
      }
      s.destroy();
    });
    stream = s;
  };
  start();
  return {
    write(line: string) {
      if (closed) return;
      if (!stream && Date.now() - failedAt >= reopenAfterMs) {
        try {
          start();
        } catch {
          failedAt = Date.now();
        }
      }
      stream?.write(line);
    },
    activeFile: () => active,
    close(): Promise<void> {
      closed = true;
      const s = stream;
      stream = null;
      return new Promise<void>((resolve) => {
        if (!s) return resolve();
        s.end(() => resolve());
      });
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
