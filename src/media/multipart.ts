/**
 * Streams the file parts of a multipart/form-data body (@fastify/busboy) to sinks, without ever
 * holding a whole file: each part's bytes are handed on as they arrive, and reading the request
 * pauses while a sink is busy (back-pressure down to the socket). The first error (a sink refusing
 * a file, a malformed body, too many files) stops reading the request at once and is thrown.
 */
import type { Busboy } from "@fastify/busboy";
import { type AppError, badRequest } from "../util/errors.ts";
import { createGcPacer } from "../util/gc-pacer.ts";
import { lazyModule } from "../util/lazy-module.ts";

/** The multipart reader (and Node's streams under it) loads with the first upload, not at start. */
const busboy = lazyModule(() => require("@fastify/busboy") as typeof import("@fastify/busboy"));

/**
 * A full collection after every 16 MB of request body (src/util/gc-pacer.ts): an upload's chunks
 * are garbage at once but pile up faster than the collector reclaims them, so a large video would
 * grow the server by far more than it holds. It costs some throughput, still well above any LAN;
 * bench/media-upload.bench.ts measures both (figures in bench/README.md, "Collections while
 * uploading").
 */
const GC_EVERY_BYTES = 16 * 1024 * 1024;

export type FilePartInfo = { field: string; filename: string; declaredType: string };
export type FileSink = {
  write(chunk: Buffer): Promise<void>;
  end(): Promise<void>;
};

export async function streamMultipartFiles(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  opts: {
    /** File parts beyond this many → `tooManyFiles()`. */
    maxFiles: number;
    tooManyFiles: () => AppError;
    /** No single part may be larger (a backstop; sinks apply their own, smaller limits). */
    maxFileBytes: number;
    tooLarge: () => AppError;
    /** Where a part's bytes go; null drops them; throwing refuses the whole upload. */
    onFile: (info: FilePartInfo) => FileSink | null;
    /** The whole body may not be larger (all parts and their framing) → `bodyTooLarge()`. */
    maxBodyBytes?: number;
    bodyTooLarge?: () => AppError;
  },
): Promise<void> {
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const fail = (err: unknown) => {
    failure ??= err;
    wake?.();
  };
  let bb: ReturnType<typeof Busboy>;
  try {
    bb = busboy().Busboy({
      headers: { "content-type": contentType },
      limits: {
        files: opts.maxFiles,
        fileSize: opts.maxFileBytes,
        fields: 20,
        fieldSize: 4096,
        parts: opts.maxFiles + 20,
        headerPairs: 20,
      },
    });
  } catch {
    throw badRequest("multipart_invalid");
  }
  const pending: Promise<void>[] = [];
  /** Sink calls still running: on failure they settle before this function returns. */
  const inflight = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    inflight.add(p);
    void p.then(
      () => inflight.delete(p),
      () => inflight.delete(p),
    );
    return p;
  };

  bb.on("file", (field, stream, filename, _encoding, mimeType) => {
    let sink: FileSink | null = null;
    if (!failure) {
      try {
        sink = opts.onFile({ field, filename, declaredType: mimeType });
      } catch (err) {
        fail(err);
      }
    }
    if (!sink || failure) {
      stream.resume();
      return;
    }
    const s = sink;
    stream.on("limit", () => fail(opts.tooLarge()));
    pending.push(
      new Promise<void>((resolve) => {
        stream.on("data", (chunk: Buffer) => {
          if (failure) return;
          stream.pause();
          track(s.write(chunk)).then(
            () => stream.resume(),
            (err) => {
              fail(err);
              stream.resume();
            },
          );
        });
        stream.on("end", () => {
          if (failure) return resolve();
          track(s.end()).then(resolve, (err) => {
            fail(err);
            resolve();
          });
        });
        stream.on("error", (err) => {
          fail(err);
          resolve();
        });
      }),
    );
  });
  bb.on("filesLimit", () => fail(opts.tooManyFiles()));
  bb.on("partsLimit", () => fail(opts.tooManyFiles()));
  const finished = new Promise<void>((resolve) => {
    bb.on("finish", () => resolve());
    bb.on("error", () => {
      fail(badRequest("multipart_incomplete"));
      resolve();
    });
  });
  const waitFor = (p: Promise<unknown>) =>
    Promise.race([
      p,
      new Promise<void>((resolve) => {
        wake = resolve;
        if (failure) resolve();
      }),
    ]).finally(() => {
      wake = null;
    });

  const reader = body.getReader();
  const pace = createGcPacer(GC_EVERY_BYTES);
  let total = 0;
  try {
    for (;;) {
      if (failure) break;
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch {
        throw badRequest("upload_interrupted");
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (opts.maxBodyBytes !== undefined && total > opts.maxBodyBytes) {
        throw (opts.bodyTooLarge ?? opts.tooLarge)();
      }
      pace(next.value.byteLength);
      const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      if (!bb.write(chunk)) {
        await waitFor(new Promise<void>((resolve) => bb.once("drain", () => resolve())));
      }
    }
    if (!failure) {
      bb.end();
      await waitFor(finished);
      await waitFor(Promise.all(pending));
    }
    if (failure) throw failure;
  } catch (err) {
    failure ??= err;
    throw failure;
  } finally {
    if (failure) {
      // Stop reading the request: what is still on its way is not wanted.
      reader.cancel().catch(() => {});
      bb.destroy();
      // The caller cleans up after this returns: no sink may still be opening or writing a file.
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    } else reader.releaseLock();
  }
}
