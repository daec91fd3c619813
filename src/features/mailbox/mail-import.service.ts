/**
 * Importing uploaded mail (POST /api/imap/import): .eml files and/or mbox files (Google Takeout),
 * read through the same pipeline as IMAP mail.
 *
 * The upload is never held in memory: the multipart body is streamed (src/media/multipart.ts,
 * busboy) and each file is written to a temp file under DATA_DIR/tmp/import-<random>/. Every file
 * is checked before any message is read (empty, or neither a message nor an mbox → 400, and
 * nothing is imported), then mbox files are split as a stream (mbox.ts) and every message goes
 * through the pipeline in one scan, in batches (`batcher`: one transaction per batch). The temp
 * folder is removed afterwards, also on error.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { IngestSummary } from "../../contract/index.ts";
import { AppError, badRequest } from "../../lib/errors.ts";
import { type FileSink, streamMultipartFiles } from "../../media/multipart.ts";
import type { MailIngestService, Scan } from "./ingest.service.ts";
import { sniffMailFile, splitMbox } from "./mbox.ts";

/** The largest upload accepted (all files together). */
export const IMPORT_BODY_LIMIT = 2 * 1024 * 1024 * 1024;
export const IMPORT_MAX_FILES = 200;
/** One .eml (or one mbox entry) larger than this is counted unreadable, not read. */
export const IMPORT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** The multipart field the files come in. */
const FIELD = "files";
const HEAD_BYTES = 4096;

export const importTooLarge = (limit: number) =>
  new AppError(
    413,
    `The upload is too large: the limit is ${formatBytes(limit)} for all files together. Split the mailbox or upload fewer files at a time.`,
  );

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MB`;
  return `${n} bytes`;
}

type Spooled = { label: string; file: string; size: number; head: Uint8Array };

/**
 * A part's bytes to a temp file (opened with the first write), keeping the first bytes. `close`
 * releases the file when the upload fails part-way (the sink's end is not called then).
 */
function fileSink(into: Spooled): FileSink & { close(): Promise<void> } {
  let fh: fsp.FileHandle | null = null;
  let closed = false;
  const open = async () => {
    fh ??= await fsp.open(into.file, "wx", 0o600);
    return fh;
  };
  return {
    async write(chunk) {
      const f = await open();
      if (into.head.length < HEAD_BYTES) {
        const head = new Uint8Array(Math.min(HEAD_BYTES, into.head.length + chunk.length));
        head.set(into.head, 0);
        head.set(chunk.subarray(0, head.length - into.head.length), into.head.length);
        into.head = head;
      }
      into.size += chunk.length;
      let off = 0;
      while (off < chunk.length) {
        const { bytesWritten } = await f.write(chunk, off, chunk.length - off);
        off += bytesWritten;
      }
    },
    async end() {
      if (closed) return;
      closed = true;
      await (await open()).close();
    },
    async close() {
      closed = true;
      await fh?.close();
    },
  };
}

/** Removes import folders a crash left behind (at start; nothing can be importing yet). */
function sweepStaleImports(tmpDir: string) {
  try {
    for (const name of fs.readdirSync(tmpDir)) {
      if (name.startsWith("import-")) {
        fs.rmSync(path.join(tmpDir, name), { recursive: true, force: true });
      }
    }
  } catch {
    // no tmp folder yet
  }
}

export type MailImportService = ReturnType<typeof createMailImportService>;

export function createMailImportService(deps: {
  ingest: MailIngestService;
  /** DATA_DIR/tmp */
  tmpDir: string;
  maxBytes?: number;
}) {
  const maxBytes = deps.maxBytes ?? IMPORT_BODY_LIMIT;
  const { ingest } = deps;
  sweepStaleImports(deps.tmpDir);

  /** Streams the upload's `files` parts to temp files in `dir`; the others are dropped. */
  async function spool(
    body: ReadableStream<Uint8Array>,
    contentType: string,
    dir: string,
  ): Promise<Spooled[]> {
    const files: Spooled[] = [];
    const sinks: ReturnType<typeof fileSink>[] = [];
    try {
      await streamMultipartFiles(body, contentType, {
        maxFiles: IMPORT_MAX_FILES,
        tooManyFiles: () => badRequest(`Upload at most ${IMPORT_MAX_FILES} files at a time`),
        maxFileBytes: maxBytes,
        tooLarge: () => importTooLarge(maxBytes),
        maxBodyBytes: maxBytes,
        onFile: ({ field, filename }) => {
          if (field !== FIELD) return null; // other fields are ignored
          const label = filename.replace(/[\r\n]/g, "").slice(0, 200) || `file ${files.length + 1}`;
          const spooled: Spooled = {
            label,
            file: path.join(dir, `${files.length}.part`),
            size: 0,
            head: new Uint8Array(0),
          };
          files.push(spooled);
          const sink = fileSink(spooled);
          sinks.push(sink);
          return sink;
        },
      });
    } finally {
      await Promise.allSettled(sinks.map((s) => s.close()));
    }
    return files;
  }

  return {
    maxBytes,

    /** Reads every message of the upload; the scan's summary. 400/413 change nothing. */
    async importUpload(
      userId: number,
      body: ReadableStream<Uint8Array>,
      contentType: string,
    ): Promise<IngestSummary> {
      await fsp.mkdir(deps.tmpDir, { recursive: true });
      const dir = await fsp.mkdtemp(path.join(deps.tmpDir, "import-"));
      let scan: Scan | null = null;
      try {
        const files = await spool(body, contentType, dir);
        if (files.length === 0) {
          throw badRequest(
            "No files were uploaded: send .eml or .mbox files in fields named files",
          );
        }
        const kinds = files.map((f) => {
          const kind = sniffMailFile(f.head);
          if (kind === "empty") throw badRequest(`"${f.label}" is empty`);
          if (kind === "unknown") {
            throw badRequest(
              `"${f.label}" is neither an email message (.eml) nor a mailbox (.mbox)`,
            );
          }
          return kind;
        });

        scan = ingest.beginScan(userId, "import");
        const batch = ingest.batcher(userId, scan);
        for (const [i, f] of files.entries()) {
          if (kinds[i] === "eml") {
            if (f.size > IMPORT_MAX_MESSAGE_BYTES) ingest.countUnreadable(scan);
            else await batch.add(await fsp.readFile(f.file));
            continue;
          }
          const stream = fs.createReadStream(f.file, { highWaterMark: 256 * 1024 });
          try {
            for await (const msg of splitMbox(stream, {
              maxMessageBytes: IMPORT_MAX_MESSAGE_BYTES,
            })) {
              if (msg.truncated) ingest.countUnreadable(scan);
              else await batch.add(msg.bytes);
            }
          } finally {
            stream.destroy();
          }
        }
        await batch.flush();
        return ingest.endScan(scan);
      } finally {
        // What was committed before an error is announced too.
        if (scan && !scan.ended) ingest.endScan(scan);
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },
  };
}
