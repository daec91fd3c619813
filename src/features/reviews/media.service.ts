/**
 * Review media (docs/screens.md, docs/behaviour.md#validation, docs/api.md, docs/behaviour.md#constants-and-limits): upload, delete, reorder, reading and export.
 *
 * - The type is decided by the file's first bytes (media/sniff.ts), never its name or declared
 *   type; each refusal uses the spec's words (MEDIA_MESSAGES). Size limits are applied while the
 *   bytes arrive; the count limits (10 files, 1 video) before a file's bytes are written.
 * - An upload streams each file to a temp file under DATA_DIR/tmp; only when every file of the
 *   request passed are locations stripped from photos (media/strip-location.ts), the files renamed
 *   into DATA_DIR/media/<userid>/<orderid>/ and the list written. A refused request keeps nothing.
 * - Writes to one order's list are serialised (two uploads at once cannot pass the limits
 *   together) and go through the orders repo, then the order event is published.
 * - Another user's order, or a URL not in the order's list, is "not found".
 */

import type { FileHandle } from "node:fs/promises";
import fsp from "node:fs/promises";
import path from "node:path";
import {
  IMAGE_MAX_BYTES,
  MEDIA_MAX_FILES,
  MEDIA_MAX_VIDEOS,
  VIDEO_MAX_BYTES,
} from "../../contract/constants.ts";
import type { UploadMediaResponse } from "../../contract/reviews.ts";
import type { OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import type { MediaTokens } from "../../media/media-token.ts";
import { type FilePartInfo, type FileSink, streamMultipartFiles } from "../../media/multipart.ts";
import { type MediaType, SNIFF_BYTES, sniffMedia } from "../../media/sniff.ts";
import {
  isVideoUrl,
  type MediaRef,
  type MediaStorage,
  mediaUrl,
  mimeOf,
  newMediaName,
  parseMediaName,
  parseMediaUrl,
} from "../../media/storage.ts";
import { stripLocation } from "../../media/strip-location.ts";
import { AppError, badRequest, notFound } from "../../util/errors.ts";
import type { OrdersRepo } from "../orders/orders.repo.ts";
import type { ExportSection } from "../users/users.service.ts";

/** Field name of the files (docs/api.md: repeated `images` fields). */
export const UPLOAD_FIELD = "images";
/** The largest legitimate upload: one video and the other files as images, plus multipart framing. */
export const MEDIA_BODY_LIMIT =
  VIDEO_MAX_BYTES + (MEDIA_MAX_FILES - 1) * IMAGE_MAX_BYTES + 1024 * 1024;

const tooLarge = (max: number) => new AppError(413, "media_too_large", { mb: max / (1024 * 1024) });

export function readList(row: Pick<OrderRow, "reviewImages">): string[] {
  try {
    const v: unknown = JSON.parse(row.reviewImages);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

type Incoming = {
  label: string;
  head: Buffer[];
  headBytes: number;
  type: MediaType | null;
  size: number;
  temp: string;
  fh: FileHandle | null;
};

export type MediaFile = { path: string; mime: string; size: number };

export function createMediaService(deps: {
  orders: OrdersRepo;
  events: EventBus;
  storage: MediaStorage;
  tokens: MediaTokens;
  now?: () => Date;
}) {
  const clock = deps.now ?? (() => new Date());
  deps.storage.sweepTemp();

  /** One writer at a time per order (upload commit, delete, reorder). */
  const locks = new Map<string, Promise<unknown>>();
  function serialised<T>(userId: number, orderId: number, fn: () => Promise<T>): Promise<T> {
    const key = `${userId}:${orderId}`;
    const prev = locks.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => {});
    locks.set(key, tail);
    void tail.then(() => {
      if (locks.get(key) === tail) locks.delete(key);
    });
    return run;
  }

  function mustFind(userId: number, orderId: number): OrderRow {
    const row = deps.orders.findForUser(userId, orderId);
    if (!row) throw notFound("order_not_found");
    return row;
  }

  function saveList(userId: number, orderId: number, list: string[]) {
    const saved = deps.orders.update(userId, orderId, {
      reviewImages: JSON.stringify(list),
      updatedAt: clock().toISOString(),
    });
    if (!saved) throw notFound("order_not_found");
    deps.events.publish(userId, "review.updated");
  }

  /** The count rules of docs/behaviour.md#validation for a list plus new files. */
  function checkCounts(current: string[], incoming: { isVideo: boolean }[]) {
    if (current.length + incoming.length > MEDIA_MAX_FILES) {
      throw badRequest("media_too_many_files", { max: MEDIA_MAX_FILES });
    }
    const have = current.filter(isVideoUrl).length;
    const adding = incoming.filter((f) => f.isVideo).length;
    if (adding > 0 && have >= MEDIA_MAX_VIDEOS) throw badRequest("media_video_exists");
    if (have + adding > MEDIA_MAX_VIDEOS) throw badRequest("media_too_many_videos");
  }

  return {
    /**
     * POST /api/orders/{id}/review/images: the files of `body` (multipart, `images` fields) are
     * added to the end of the order's list. Answers the whole list.
     */
    async upload(
      userId: number,
      orderId: number,
      body: ReadableStream<Uint8Array> | null,
      contentType: string | undefined,
      declaredLength: number | null,
    ): Promise<UploadMediaResponse> {
      const current = readList(mustFind(userId, orderId));
      if (!contentType || !/^\s*multipart\/form-data\s*;/i.test(contentType)) {
        throw badRequest("media_upload_form", { name: UPLOAD_FIELD });
      }
      if (declaredLength !== null && declaredLength > MEDIA_BODY_LIMIT) {
        throw tooLarge(VIDEO_MAX_BYTES);
      }
      if (!body) throw badRequest("no_files");

      const dir = await deps.storage.tempDir();
      const files: Incoming[] = [];
      try {
        const open = async (f: Incoming) => {
          const head = Buffer.concat(f.head);
          const sniffed = sniffMedia(head);
          if (sniffed.kind === "other") throw badRequest("media_not_media");
          if (sniffed.kind === "unsupported") throw badRequest("media_unsupported");
          f.type = sniffed;
          checkCounts(
            current,
            files.filter((x) => x.type).map((x) => ({ isVideo: x.type?.kind === "video" })),
          );
          f.head = [];
          f.fh = await fsp.open(f.temp, "wx", 0o600);
          await writeAll(f, head);
        };
        const writeAll = async (f: Incoming, chunk: Buffer) => {
          const max = f.type?.kind === "video" ? VIDEO_MAX_BYTES : IMAGE_MAX_BYTES;
          f.size += chunk.length;
          if (f.size > max) throw tooLarge(max);
          let off = 0;
          while (off < chunk.length) {
            const { bytesWritten } = await f.fh!.write(chunk, off, chunk.length - off);
            off += bytesWritten;
          }
        };
        const sinkFor = (info: FilePartInfo): FileSink | null => {
          if (info.field !== UPLOAD_FIELD) return null;
          if (current.length + files.length >= MEDIA_MAX_FILES) {
            throw badRequest("media_too_many_files", { max: MEDIA_MAX_FILES });
          }
          const f: Incoming = {
            label:
              info.filename.replace(/[\r\n"]/g, "").slice(0, 120) || `file ${files.length + 1}`,
            head: [],
            headBytes: 0,
            type: null,
            size: 0,
            temp: path.join(dir, `${files.length}.part`),
            fh: null,
          };
          files.push(f);
          return {
            async write(chunk) {
              if (f.type) return writeAll(f, chunk);
              f.head.push(chunk);
              f.headBytes += chunk.length;
              if (f.headBytes >= SNIFF_BYTES) await open(f);
            },
            async end() {
              if (!f.type) {
                if (f.headBytes === 0) throw badRequest("file_empty", { file: f.label });
                await open(f);
              }
              await f.fh!.datasync();
              await f.fh!.close();
              f.fh = null;
            },
          };
        };
        await streamMultipartFiles(body, contentType, {
          maxFiles: MEDIA_MAX_FILES,
          tooManyFiles: () => badRequest("media_too_many_files", { max: MEDIA_MAX_FILES }),
          maxFileBytes: VIDEO_MAX_BYTES + 1,
          tooLarge: () => tooLarge(VIDEO_MAX_BYTES),
          onFile: sinkFor,
        });
        if (files.length === 0) {
          throw badRequest("media_no_files", { name: UPLOAD_FIELD });
        }

        // Every file passed: locations out of the photos and the video, then they land together.
        for (const f of files) {
          if (!f.type) continue;
          const fh = await fsp.open(f.temp, "r+");
          try {
            await stripLocation(fh, f.type);
            await fh.datasync();
          } finally {
            await fh.close();
          }
        }
        return await serialised(userId, orderId, async () => {
          const now = readList(mustFind(userId, orderId));
          checkCounts(
            now,
            files.map((f) => ({ isVideo: f.type?.kind === "video" })),
          );
          const landed: MediaRef[] = [];
          try {
            const urls: string[] = [];
            for (const f of files) {
              const name = newMediaName(f.type!.ext);
              await deps.storage.land(f.temp, userId, orderId, name);
              landed.push({ orderId, name, ext: f.type!.ext });
              urls.push(mediaUrl(orderId, name));
            }
            const list = [...now, ...urls];
            saveList(userId, orderId, list);
            return { urls: list };
          } catch (err) {
            for (const ref of landed) await deps.storage.remove(userId, ref);
            throw err;
          }
        });
      } finally {
        for (const f of files) await f.fh?.close().catch(() => {});
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },

    /** DELETE /api/orders/{id}/review/images/{encodedUrl}: one of the order's own URLs only. */
    remove(userId: number, orderId: number, url: string) {
      return serialised(userId, orderId, async () => {
        const list = readList(mustFind(userId, orderId));
        const ref = parseMediaUrl(url);
        if (!ref || ref.orderId !== orderId) {
          throw badRequest("media_url_foreign", { order: orderId });
        }
        if (!list.includes(url)) throw notFound("media_not_found");
        saveList(
          userId,
          orderId,
          list.filter((u) => u !== url),
        );
        await deps.storage.remove(userId, ref);
        return { success: true as const };
      });
    },

    /** PUT /api/orders/{id}/review/images/order: the same URLs, each once, in a new order. */
    reorder(userId: number, orderId: number, urls: string[]) {
      return serialised(userId, orderId, async () => {
        const list = readList(mustFind(userId, orderId));
        const same =
          urls.length === list.length &&
          new Set(urls).size === urls.length &&
          urls.every((u) => list.includes(u));
        if (!same) {
          throw badRequest("media_reorder_mismatch");
        }
        saveList(userId, orderId, urls);
        return { success: true as const, urls };
      });
    },

    /** A media file of the user's order, for GET /api/media/{orderid}/{name}; else not found. */
    async file(userId: number, orderParam: string, name: string): Promise<MediaFile> {
      const ref = parseMediaName(orderParam, name);
      if (!ref) throw notFound("media_not_found");
      const row = deps.orders.findForUser(userId, ref.orderId);
      if (!row || !readList(row).includes(mediaUrl(ref.orderId, ref.name))) {
        throw notFound("media_not_found");
      }
      const p = deps.storage.filePath(userId, ref);
      try {
        const st = await fsp.stat(p);
        return { path: p, mime: mimeOf(ref), size: st.size };
      } catch {
        throw notFound("media_not_found");
      }
    },

    /** GET /api/media/token: a read-only token for <img>/<video> URLs (media-token.ts). */
    issueToken: (userId: number, sessionId: string) => deps.tokens.issue(userId, sessionId),
    verifyToken: (token: string) => deps.tokens.verify(token),

    /**
     * Every stored media file of the user, as the export lists them: where each one goes in the
     * archive, and the order and URL it belongs to.
     */
    async exportFiles(userId: number) {
      const out: {
        orderid: number;
        url: string;
        archivePath: string;
        contentType: string;
        bytes: number;
        file: string;
        mtime: Date;
      }[] = [];
      for (const row of deps.orders.listAll(userId)) {
        for (const url of readList(row)) {
          const ref = parseMediaUrl(url);
          if (!ref || ref.orderId !== row.id) continue;
          const file = deps.storage.filePath(userId, ref);
          try {
            const st = await fsp.stat(file);
            out.push({
              orderid: row.id,
              url,
              archivePath: `media/${row.id}/${ref.name}`,
              contentType: mimeOf(ref),
              bytes: st.size,
              file,
              mtime: st.mtime,
            });
          } catch {
            // listed but missing on disk: nothing to export
          }
        }
      }
      return out;
    },

    /** The JSON export's `reviewMedia`: which file of the archive belongs to which order. */
    exportSection: ((userId: number) => ({
      reviewMedia: deps.orders.listAll(userId).flatMap((row) =>
        readList(row).flatMap((url, position) => {
          const ref = parseMediaUrl(url);
          return ref
            ? [
                {
                  orderid: row.id,
                  position,
                  url,
                  archivePath: `media/${row.id}/${ref.name}`,
                  contentType: mimeOf(ref),
                },
              ]
            : [];
        }),
      ),
    })) satisfies ExportSection,
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
