/**
 * POST /api/imap/import (behind requireAuth): .eml files and/or mbox files (Google Takeout) in
 * repeated multipart `files` fields, read through the same pipeline as IMAP mail.
 *
 * The upload is never held in memory: the multipart body is parsed as a stream (below; Bun's and
 * Hono's formData() read the whole body into memory first) and each file is written to a temp
 * file under DATA_DIR/tmp/import-<random>/. Every file is checked before any message is read
 * (empty, or neither a message nor an mbox → 400, and nothing is imported), then mbox files are
 * split as a stream (features/mailbox/mbox.ts) and every message goes through the pipeline in one
 * scan, in batches (`batcher`: one transaction per batch). The temp folder is removed afterwards,
 * also on error. The JSON body limit of /api/* does not apply here (see app.ts); this route has
 * its own limit.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Hono } from "hono";
import { type IngestSummary, importModeBody } from "../../contract/index.ts";
import type { MailIngestService, Scan } from "../../features/mailbox/ingest.service.ts";
import { sniffMailFile, splitMbox } from "../../features/mailbox/mbox.ts";
import { AppError, badRequest } from "../../lib/errors.ts";
import type { AppEnv } from "../types.ts";
import { readBody } from "../validate.ts";

export const IMPORT_PATH = "/api/imap/import";
/** The largest upload accepted (all files together). */
export const IMPORT_BODY_LIMIT = 2 * 1024 * 1024 * 1024;
export const IMPORT_MAX_FILES = 200;
/** One .eml (or one mbox entry) larger than this is counted unreadable, not read. */
export const IMPORT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const HEAD_BYTES = 4096;
const MAX_PART_HEADERS = 16 * 1024;

const tooLarge = (limit: number) =>
  new AppError(
    413,
    `The upload is too large: the limit is ${formatBytes(limit)} for all files together. Split the mailbox or upload fewer files at a time.`,
  );

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MB`;
  return `${n} bytes`;
}

/* ------------------------------------------------------------------------------------------------
 * Streaming multipart/form-data (RFC 7578)
 * --------------------------------------------------------------------------------------------- */

export type PartInfo = {
  name: string | null;
  filename: string | null;
  contentType: string | null;
};
export type PartSink = {
  write(chunk: Uint8Array): Promise<void> | void;
  end(): Promise<void> | void;
};

/** The boundary of a multipart/form-data Content-Type, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

function dispositionParam(value: string, key: string): string | null {
  // filename*=UTF-8''name%20x (RFC 5987) wins over filename="..."
  const ext = new RegExp(`;\\s*${key}\\*\\s*=\\s*([^']*)'[^']*'([^;]*)`, "i").exec(value);
  if (ext) {
    try {
      return decodeURIComponent(ext[2]!.trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const m = new RegExp(`;\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(
    value,
  );
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? null);
}

function parsePartHeaders(block: string): PartInfo {
  let disposition = "";
  let contentType: string | null = null;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  return {
    name: dispositionParam(disposition, "name"),
    filename: dispositionParam(disposition, "filename"),
    contentType,
  };
}

/**
 * Reads a multipart/form-data body as a stream: `onPart` is called with each part's headers and
 * returns where its bytes go (null: dropped). Only a delimiter's length of bytes is held back
 * between chunks. Throws AppError 400 for a malformed body, 413 past `maxBytes`.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  opts: {
    maxBytes: number;
    onPart: (part: PartInfo) => Promise<PartSink | null> | PartSink | null;
  },
): Promise<void> {
  const delim = Buffer.from(`\r\n--${boundary}`, "latin1");
  const CRLF = Buffer.from("\r\n");
  const CRLFCRLF = Buffer.from("\r\n\r\n");
  // A CRLF in front lets the first boundary (which has none) match the same delimiter.
  let buf: Buffer = Buffer.from(CRLF);
  let state: "preamble" | "boundary-line" | "headers" | "body" | "done" = "preamble";
  let sink: PartSink | null = null;
  let total = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch {
        throw badRequest("The upload was interrupted before it finished; try again");
      }
      const { done, value } = next;
      if (done) break;
      if (!value || value.length === 0) continue;
      total += value.length;
      if (total > opts.maxBytes) throw tooLarge(opts.maxBytes);
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      if (
        state === "body" &&
        buf.length > 0 &&
        buf.length < delim.length &&
        chunk.length >= delim.length
      ) {
        // Inside a file the held-back tail is shorter than a delimiter: unless a delimiter starts
        // in it, it is file data, and the chunk is read as it is instead of copied behind it
        // (a copy of every chunk doubled the garbage of a 1 GB upload).
        const window = Buffer.concat([buf, chunk.subarray(0, delim.length - 1)]);
        const i = window.indexOf(delim);
        if (i < 0 || i >= buf.length) {
          if (sink) await sink.write(buf);
          buf = chunk;
        } else buf = Buffer.concat([buf, chunk]);
      } else buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);

      let more = true;
      while (more) {
        switch (state) {
          case "preamble": {
            const i = buf.indexOf(delim);
            if (i < 0) {
              buf = buf.subarray(Math.max(0, buf.length - delim.length + 1));
              more = false;
            } else {
              buf = buf.subarray(i + delim.length);
              state = "boundary-line";
            }
            break;
          }
          case "boundary-line": {
            if (buf.length < 2) {
              more = false;
              break;
            }
            if (buf[0] === 0x2d && buf[1] === 0x2d) {
              state = "done"; // the close delimiter: the epilogue is ignored
              buf = Buffer.alloc(0);
              more = false;
              break;
            }
            const i = buf.indexOf(CRLF);
            if (i < 0) {
              if (buf.length > 1024)
                throw badRequest("The upload is not valid multipart/form-data");
              more = false;
              break;
            }
            if (buf.subarray(0, i).toString("latin1").trim() !== "") {
              throw badRequest("The upload is not valid multipart/form-data");
            }
            buf = buf.subarray(i + 2);
            state = "headers";
            break;
          }
          case "headers": {
            let block: string;
            if (buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a) {
              block = "";
              buf = buf.subarray(2);
            } else {
              const i = buf.indexOf(CRLFCRLF);
              if (i < 0) {
                if (buf.length > MAX_PART_HEADERS) {
                  throw badRequest("The upload is not valid multipart/form-data");
                }
                more = false;
                break;
              }
              block = buf.subarray(0, i).toString("utf8");
              buf = buf.subarray(i + 4);
            }
            sink = await opts.onPart(parsePartHeaders(block));
            state = "body";
            break;
          }
          case "body": {
            const i = buf.indexOf(delim);
            if (i >= 0) {
              if (sink) {
                if (i > 0) await sink.write(buf.subarray(0, i));
                const s = sink;
                sink = null;
                await s.end();
              }
              buf = buf.subarray(i + delim.length);
              state = "boundary-line";
            } else {
              const safe = buf.length - (delim.length - 1);
              if (safe > 0) {
                if (sink) await sink.write(buf.subarray(0, safe));
                buf = buf.subarray(safe);
              }
              more = false;
            }
            break;
          }
          case "done":
            buf = Buffer.alloc(0);
            more = false;
            break;
        }
      }
      // Keep what is held back in its own small buffer, not as a view pinning the whole chunk.
      if (buf.length > 0 && buf.buffer === chunk.buffer) buf = Buffer.from(buf);
    }
    if (state !== "done") {
      throw badRequest(
        total === 0
          ? "No files were uploaded"
          : "The upload ended before its last part was complete; try again",
      );
    }
  } finally {
    if (sink) await sink.end();
    reader.releaseLock();
  }
}

/* ------------------------------------------------------------------------------------------------
 * The route
 * --------------------------------------------------------------------------------------------- */

type Spooled = { label: string; file: string; size: number; head: Uint8Array };

/** A part's bytes to a temp file, keeping the first bytes for sniffing. */
async function fileSink(file: string, into: Spooled): Promise<PartSink> {
  const fh = await fsp.open(file, "wx", 0o600);
  let closed = false;
  return {
    async write(chunk) {
      if (into.head.length < HEAD_BYTES) {
        const head = new Uint8Array(Math.min(HEAD_BYTES, into.head.length + chunk.length));
        head.set(into.head, 0);
        head.set(chunk.subarray(0, head.length - into.head.length), into.head.length);
        into.head = head;
      }
      into.size += chunk.length;
      let off = 0;
      while (off < chunk.length) {
        const { bytesWritten } = await fh.write(chunk, off, chunk.length - off);
        off += bytesWritten;
      }
    },
    async end() {
      if (closed) return;
      closed = true;
      await fh.close();
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

type ServerTimeouts = { timeout?: (req: Request, seconds: number) => void };

export function mailImportRoutes(deps: {
  ingest: MailIngestService;
  /** DATA_DIR/tmp */
  tmpDir: string;
  maxBytes?: number;
}) {
  const maxBytes = deps.maxBytes ?? IMPORT_BODY_LIMIT;
  sweepStaleImports(deps.tmpDir);

  return new Hono<AppEnv>().post("/", async (c) => {
    const userId = c.get("user").id;
    const boundary = multipartBoundary(c.req.header("content-type"));
    if (!boundary) {
      throw badRequest(
        "Upload the files as multipart/form-data, in one or more fields named files (.eml messages or .mbox mailboxes)",
      );
    }
    const declared = Number(c.req.header("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
    const body = c.req.raw.body;
    if (!body) throw badRequest("No files were uploaded");
    // A large mailbox takes a while to read after the upload: no idle timeout for this request.
    (c.env as { server?: ServerTimeouts } | undefined)?.server?.timeout?.(c.req.raw, 0);

    await fsp.mkdir(deps.tmpDir, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(deps.tmpDir, "import-"));
    let scan: Scan | null = null;
    try {
      const files: Spooled[] = [];
      await readMultipart(body, boundary, {
        maxBytes,
        onPart: async (part) => {
          if (part.name !== "files") return null; // other fields are ignored
          if (files.length >= IMPORT_MAX_FILES) {
            throw badRequest(`Upload at most ${IMPORT_MAX_FILES} files at a time`);
          }
          const label =
            (part.filename ?? "").replace(/[\r\n]/g, "").slice(0, 200) ||
            `file ${files.length + 1}`;
          const spooled: Spooled = {
            label,
            file: path.join(dir, `${files.length}.part`),
            size: 0,
            head: new Uint8Array(0),
          };
          files.push(spooled);
          return fileSink(spooled.file, spooled);
        },
      });
      if (files.length === 0) {
        throw badRequest("No files were uploaded: send .eml or .mbox files in fields named files");
      }
      const kinds = files.map((f) => {
        const kind = sniffMailFile(f.head);
        if (kind === "empty") throw badRequest(`"${f.label}" is empty`);
        if (kind === "unknown") {
          throw badRequest(`"${f.label}" is neither an email message (.eml) nor a mailbox (.mbox)`);
        }
        return kind;
      });

      scan = deps.ingest.beginScan(userId, "import");
      const batch = deps.ingest.batcher(userId, scan);
      for (const [i, f] of files.entries()) {
        if (kinds[i] === "eml") {
          if (f.size > IMPORT_MAX_MESSAGE_BYTES) deps.ingest.countUnreadable(scan);
          else await batch.add(await fsp.readFile(f.file));
          continue;
        }
        const stream = fs.createReadStream(f.file, { highWaterMark: 256 * 1024 });
        try {
          for await (const msg of splitMbox(stream, {
            maxMessageBytes: IMPORT_MAX_MESSAGE_BYTES,
          })) {
            if (msg.truncated) deps.ingest.countUnreadable(scan);
            else await batch.add(msg.bytes);
          }
        } finally {
          stream.destroy();
        }
      }
      await batch.flush();
      const summary: IngestSummary = deps.ingest.endScan(scan);
      return c.json(summary);
    } finally {
      // What was committed before an error is announced too.
      if (scan && !scan.ended) deps.ingest.endScan(scan);
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
}

/**
 * PUT /api/imap/import-mode {importMode}: Vine orders only, or every Amazon order. `reread`: the
 * messages read before that the new mode imports when read again (files, a mailbox re-scan).
 */
export function importModeRoutes(ingest: MailIngestService) {
  return new Hono<AppEnv>().put("/", async (c) => {
    const { importMode } = await readBody(c, importModeBody);
    const reread = ingest.setImportMode(c.get("user").id, importMode);
    return c.json({ success: true, importMode, reread });
  });
}
