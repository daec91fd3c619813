/**
 * Where review media live: DATA_DIR/media/<userid>/<orderid>/<name>, with an unguessable name
 * (128 random bits + the extension of the sniffed type). The URL kept in orders.review_images is
 * /api/media/<orderid>/<name>; the user comes from the request's authentication, so a URL never
 * reaches another user's folder. Uploads are written to a temp file under DATA_DIR/tmp first and
 * land with a rename.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { EXT_MIME, type MediaType } from "./sniff.ts";

export const MEDIA_URL_PREFIX = "/api/media/";
const NAME_RE = /^[A-Za-z0-9_-]{22}\.(jpg|png|gif|webp|mp4)$/;

export type MediaRef = { orderId: number; name: string; ext: MediaType["ext"] };

export const newMediaName = (ext: MediaType["ext"]) =>
  `${crypto.randomBytes(16).toString("base64url")}.${ext}`;

export const mediaUrl = (orderId: number, name: string) => `${MEDIA_URL_PREFIX}${orderId}/${name}`;

/** A stored media URL taken apart, or null when it is not exactly one of ours. */
export function parseMediaUrl(url: string): MediaRef | null {
  if (!url.startsWith(MEDIA_URL_PREFIX)) return null;
  const [order, name, ...rest] = url.slice(MEDIA_URL_PREFIX.length).split("/");
  if (rest.length > 0 || !order || !name) return null;
  return parseMediaName(order, name);
}

export function parseMediaName(order: string, name: string): MediaRef | null {
  if (!/^[1-9]\d{0,14}$/.test(order)) return null;
  const m = NAME_RE.exec(name);
  if (!m) return null;
  return { orderId: Number(order), name, ext: m[1] as MediaType["ext"] };
}

export const mimeOf = (ref: MediaRef) => EXT_MIME[ref.ext];
export const isVideoUrl = (url: string) => parseMediaUrl(url)?.ext === "mp4";

export function createMediaStorage(opts: { mediaDir: string; tmpDir: string }) {
  const orderDir = (userId: number, orderId: number) =>
    path.join(opts.mediaDir, String(userId), String(orderId));

  return {
    orderDir,
    /** The file of a parsed (hence safe) reference. */
    filePath: (userId: number, ref: MediaRef) => path.join(orderDir(userId, ref.orderId), ref.name),

    /** A fresh folder for one upload's temp files. */
    async tempDir(): Promise<string> {
      await fsp.mkdir(opts.tmpDir, { recursive: true });
      return fsp.mkdtemp(path.join(opts.tmpDir, "media-"));
    },

    /** Moves a finished temp file to its place (a rename: readers see all of it or nothing). */
    async land(tempFile: string, userId: number, orderId: number, name: string): Promise<string> {
      const dir = orderDir(userId, orderId);
      await fsp.mkdir(dir, { recursive: true });
      const dest = path.join(dir, name);
      try {
        await fsp.rename(tempFile, dest);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
        // DATA_DIR/tmp on another file system: copy beside the target, then rename there.
        const near = path.join(dir, `.${name}.part`);
        await fsp.copyFile(tempFile, near);
        await fsp.rename(near, dest);
        await fsp.rm(tempFile, { force: true });
      }
      return dest;
    },

    async remove(userId: number, ref: MediaRef) {
      await fsp.rm(path.join(orderDir(userId, ref.orderId), ref.name), { force: true });
    },

    /** Removes temp folders a crash left behind (at start: nothing can be uploading yet). */
    sweepTemp() {
      try {
        for (const name of fs.readdirSync(opts.tmpDir)) {
          if (name.startsWith("media-")) {
            fs.rmSync(path.join(opts.tmpDir, name), { recursive: true, force: true });
          }
        }
      } catch {
        // no tmp folder yet
      }
    },
  };
}
export type MediaStorage = ReturnType<typeof createMediaStorage>;
