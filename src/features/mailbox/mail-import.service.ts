/**
 * Importing uploaded mail (POST /api/imap/import): .eml files and/or mbox files (Google Takeout),
 * read through the same pipeline as IMAP mail.
 *
 * - The upload is never held in memory: the multipart body is streamed (src/media/multipart.ts,
 *   busboy) and each file is written to a temp file under DATA_DIR/tmp/import-<random>/. Every
 *   file is checked before any message is read (empty, or neither a message nor an mbox → 400,
 *   and nothing is imported). The temp folder is removed afterwards, also on error.
 * - Every message goes through the ingestion service in one scan, in batches (`batcher`: one
 *   transaction per batch); the ledger makes reading a message twice harmless.
 * - The per-message cap is the IMAP one (MAIL_MESSAGE_MAX_BYTES): a larger .eml or mbox entry is
 *   counted skipped "too-large" and never parsed (the mbox splitter does not even keep it).
 * - Each file has a row in mail_imports while it is read, with how many of its messages are
 *   committed (recorded every `progressEvery` messages, after a flush, so the count is exact). A
 *   file read to its end loses its row (and so do earlier imports of the same file name). A row no
 *   running import owns is an import cut short (a restart, a failure): `interrupted` lists them
 *   for the mailbox screen, which says which file stopped where and that importing it again
 *   finishes it without duplicates.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { IngestSummary, InterruptedImport } from "../../contract/index.ts";
import { sniffMailFile, splitMbox } from "../../mail/mbox.ts";
import { type FileSink, streamMultipartFiles } from "../../media/multipart.ts";
import { AppError, badRequest } from "../../util/errors.ts";
import { pluralForm } from "../../util/plural.ts";
import { MAIL_MESSAGE_MAX_BYTES, type MailIngestService } from "./ingest.service.ts";
import type { MailImportRepo } from "./mail-import.repo.ts";

/** The largest upload accepted (all files together). */
export const IMPORT_BODY_LIMIT = 2 * 1024 * 1024 * 1024;
export const IMPORT_MAX_FILES = 200;
/** The multipart field the files come in. */
const FIELD = "files";
const HEAD_BYTES = 4096;

export const importTooLarge = (limit: number) =>
  new AppError(413, "import_too_large", { limit: formatBytes(limit) });

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

/** An uploaded file, spooled to disk and sniffed by the route. */
export type SpooledMailFile = { label: string; path: string; size: number; kind: "eml" | "mbox" };

const fmt = (n: number) => n.toLocaleString("en-US");

export function interruptedMessage(fileName: string, messagesRead: number): string {
  const where =
    messagesRead > 0
      ? `stopped after ${fmt(messagesRead)} ${pluralForm(messagesRead, { one: "message", other: "messages" })}`
      : "stopped before any of its messages was read";
  return `The import of "${fileName}" ${where} and did not finish (the server restarted or the import failed). Import the same file again to finish it: messages already read are skipped, nothing is duplicated.`;
}

export function createMailImportService(deps: {
  ingest: Pick<MailIngestService, "beginScan" | "batcher" | "countSkipped" | "endScan">;
  repo: MailImportRepo;
  /** DATA_DIR/tmp */
  tmpDir: string;
  /** The upload limit (all files together). */
  maxBytes?: number;
  messageMaxBytes?: number;
  progressEvery?: number;
}) {
  const max = deps.messageMaxBytes ?? MAIL_MESSAGE_MAX_BYTES;
  const progressEvery = deps.progressEvery ?? 500;
  const uploadLimit = deps.maxBytes ?? IMPORT_BODY_LIMIT;
  /** mail_imports rows owned by an import running in this process. */
  const active = new Set<number>();
  sweepStaleImports(deps.tmpDir);

  /** Streams the upload's `files` parts to temp files in `dir`; the others are dropped. */
  async function spool(
    body: ReadableStream<Uint8Array>,
    contentType: string,
    dir: string,
    maxBytes: number,
  ): Promise<Spooled[]> {
    const files: Spooled[] = [];
    const sinks: ReturnType<typeof fileSink>[] = [];
    try {
      await streamMultipartFiles(body, contentType, {
        maxFiles: IMPORT_MAX_FILES,
        tooManyFiles: () => badRequest("import_too_many_files", { max: IMPORT_MAX_FILES }),
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

  /** Reads the files in order; the summary of the one scan. */
  async function importFiles(
    userId: number,
    files: readonly SpooledMailFile[],
  ): Promise<IngestSummary> {
    const ids = deps.repo.start(
      userId,
      files.map((f) => ({ name: f.label, bytes: f.size })),
    );
    for (const id of ids) active.add(id);
    const scan = deps.ingest.beginScan(userId, "import");
    try {
      const batch = deps.ingest.batcher(userId, scan);
      for (const [i, f] of files.entries()) {
        const id = ids[i]!;
        if (f.kind === "eml") {
          if (f.size > max) deps.ingest.countSkipped(scan, "too-large");
          else await batch.add(await fsp.readFile(f.path));
        } else {
          const stream = fs.createReadStream(f.path, { highWaterMark: 256 * 1024 });
          try {
            for await (const msg of splitMbox(stream, { maxMessageBytes: max })) {
              if (msg.truncated) deps.ingest.countSkipped(scan, "too-large");
              else await batch.add(msg.bytes);
              if ((msg.index + 1) % progressEvery === 0) {
                await batch.flush();
                deps.repo.progress(id, msg.index + 1);
              }
            }
          } finally {
            stream.destroy();
          }
        }
        await batch.flush();
        deps.repo.finish(id, userId, f.label);
        active.delete(id);
      }
      return deps.ingest.endScan(scan);
    } finally {
      // What was committed before an error is announced too; unfinished files stay listed.
      if (!scan.ended) deps.ingest.endScan(scan);
      for (const id of ids) active.delete(id);
    }
  }

  return {
    /** The upload limit (all files together), unless a call gives its own. */
    maxBytes: uploadLimit,

    importFiles,

    /** Reads every message of the upload; the scan's summary. 400/413 change nothing. */
    async importUpload(
      userId: number,
      body: ReadableStream<Uint8Array>,
      contentType: string,
      maxBytes: number = uploadLimit,
    ): Promise<IngestSummary> {
      await fsp.mkdir(deps.tmpDir, { recursive: true });
      const dir = await fsp.mkdtemp(path.join(deps.tmpDir, "import-"));
      try {
        const files = await spool(body, contentType, dir, maxBytes);
        if (files.length === 0) {
          throw badRequest("import_no_files");
        }
        const kinds = files.map((f) => {
          const kind = sniffMailFile(f.head);
          if (kind === "empty") throw badRequest("file_empty", { file: f.label });
          if (kind === "unknown") {
            throw badRequest("import_not_mail", { file: f.label });
          }
          return kind;
        });
        return await importFiles(
          userId,
          files.map((f, i) => ({ label: f.label, path: f.file, size: f.size, kind: kinds[i]! })),
        );
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },

    /** Forgets the user's imports that stopped before their end (not the running ones). */
    dismissInterrupted(userId: number): number {
      const ids = deps.repo
        .listFor(userId)
        .filter((r) => !active.has(r.id))
        .map((r) => r.id);
      deps.repo.remove(ids);
      return ids.length;
    },

    /** Files of imports that stopped before their end (not running now), oldest first. */
    interrupted(userId: number): InterruptedImport[] {
      return deps.repo
        .listFor(userId)
        .filter((r) => !active.has(r.id))
        .map((r) => ({
          fileName: r.fileName,
          fileBytes: r.fileBytes,
          messagesRead: r.messagesRead,
          startedAt: r.startedAt,
          lastProgressAt: r.updatedAt,
          message: interruptedMessage(r.fileName, r.messagesRead),
        }));
    },
  };
}

export type MailImportService = ReturnType<typeof createMailImportService>;
