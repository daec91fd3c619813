/**
 * The media area's client-side rules (docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits), pure so they can be unit-tested: which chosen
 * files may be uploaded (type, size, 10 files, 1 video, with the spec's messages), which dropped
 * URLs are fetched, and which are refused as a cloud photo album.
 */
import {
  IMAGE_MAX_BYTES,
  MEDIA_IMAGE_TYPES,
  MEDIA_MAX_FILES,
  MEDIA_MAX_VIDEOS,
  MEDIA_VIDEO_TYPES,
  VIDEO_MAX_BYTES,
} from "../../../../src/contract/constants.ts";
import { translate } from "../../../i18n/index.ts";

/** The refusals of the spec (the server's MEDIA_MESSAGES), in the reader's language. */
export const mediaMessages = {
  notMedia: () => translate("media.error.notMedia"),
  unsupported: () => translate("media.error.unsupported"),
  tooManyFiles: () => translate("media.error.tooManyFiles", { max: MEDIA_MAX_FILES }),
  videoExists: () => translate("media.error.videoExists"),
  tooManyVideos: () => translate("media.error.tooManyVideos"),
  tooLarge: (maxBytes: number) =>
    translate("media.error.tooLarge", { mb: maxBytes / (1024 * 1024) }),
  album: () => translate("media.error.album"),
};

export const ACCEPT = [...MEDIA_IMAGE_TYPES, ...MEDIA_VIDEO_TYPES].join(",");
/** Upload progress (docs/behaviour.md#constants-and-limits): steps of 10 every 200 ms up to 90; a success item goes after 1 s. */
export const PROGRESS_STEP = 10;
export const PROGRESS_EVERY_MS = 200;
export const PROGRESS_CAP = 90;
export const SUCCESS_REMOVE_MS = 1000;

export const isVideoUrl = (url: string) => /\.mp4$/i.test(url.split("?")[0] ?? "");

type FileLike = { name: string; type: string; size: number };

/**
 * Splits chosen files into those to upload and the first refusal. `existing` are the order's
 * stored URLs, `pending` the files already uploading (they count against the limits too).
 */
export function checkFiles<F extends FileLike>(
  existing: string[],
  pending: FileLike[],
  files: F[],
): { accepted: F[]; error: string | null } {
  const accepted: F[] = [];
  let error: string | null = null;
  const videosHave =
    existing.filter(isVideoUrl).length + pending.filter((f) => f.type.startsWith("video/")).length;
  let videosAdded = 0;
  for (const f of files) {
    const type = f.type.toLowerCase();
    let refusal: string | null = null;
    if (!type.startsWith("image/") && !type.startsWith("video/"))
      refusal = mediaMessages.notMedia();
    else if (
      !(MEDIA_IMAGE_TYPES as readonly string[]).includes(type) &&
      !(MEDIA_VIDEO_TYPES as readonly string[]).includes(type)
    ) {
      refusal = mediaMessages.unsupported();
    } else {
      const video = type.startsWith("video/");
      const max = video ? VIDEO_MAX_BYTES : IMAGE_MAX_BYTES;
      if (f.size > max) refusal = mediaMessages.tooLarge(max);
      else if (existing.length + pending.length + accepted.length >= MEDIA_MAX_FILES) {
        refusal = mediaMessages.tooManyFiles();
      } else if (video && videosHave >= MEDIA_MAX_VIDEOS) refusal = mediaMessages.videoExists();
      else if (video && videosHave + videosAdded >= MEDIA_MAX_VIDEOS) {
        refusal = mediaMessages.tooManyVideos();
      } else if (video) videosAdded++;
    }
    if (refusal) error ??= refusal;
    else accepted.push(f);
  }
  return { accepted, error };
}

/** Cloud photo albums: their pages are not image files and cannot be fetched. */
const ALBUM_HOSTS = [
  "photos.google.com",
  "photos.app.goo.gl",
  "goo.gl",
  "icloud.com",
  "www.icloud.com",
  "share.icloud.com",
  "photos.onedrive.com",
  "onedrive.live.com",
  "1drv.ms",
];
/** Hosts that serve photos directly, without an extension in the address. */
const PHOTO_HOSTS = [
  "lh3.googleusercontent.com",
  "lh4.googleusercontent.com",
  "lh5.googleusercontent.com",
  "lh6.googleusercontent.com",
  "i.imgur.com",
  "images.unsplash.com",
  "m.media-amazon.com",
  "images-na.ssl-images-amazon.com",
  "pbs.twimg.com",
  "live.staticflickr.com",
  "i.redd.it",
  "i.ibb.co",
];
export const GOOGLE_PHOTOS_CDN = /(^|\.)googleusercontent\.com$/;
const MEDIA_EXT = /\.(jpe?g|png|gif|webp|bmp|mp4)$/i;

export type DroppedUrl =
  | { kind: "fetch"; url: string; name: string }
  | { kind: "album" }
  | { kind: "refuse" };

export function classifyDroppedUrl(text: string): DroppedUrl {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    return { kind: "refuse" };
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return { kind: "refuse" };
  const host = u.hostname.toLowerCase();
  if (
    ALBUM_HOSTS.includes(host) ||
    (host === "www.amazon.com" && u.pathname.startsWith("/photos"))
  ) {
    return { kind: "album" };
  }
  const last = decodeURIComponent(u.pathname.split("/").pop() ?? "");
  if (MEDIA_EXT.test(u.pathname) || PHOTO_HOSTS.includes(host)) {
    return { kind: "fetch", url: u.href, name: last || "photo" };
  }
  return { kind: "refuse" };
}

/** Moves the item at `from` to `to` (a new array). */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  if (from < 0 || from >= out.length || to < 0 || to >= out.length) return out;
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item as T);
  return out;
}

/**
 * Whether Retry can help a failed upload: a network failure, a timeout, a busy
 * or failing server can pass next time; a file the server refused (wrong type, too large, too
 * many: 400, 413, 415 and the other 4xx) never will, so it gets no Retry.
 */
export function canRetryUpload(status: number | null): boolean {
  if (status === null) return true;
  if (status === 408 || status === 409 || status === 429) return true;
  return status >= 500;
}
