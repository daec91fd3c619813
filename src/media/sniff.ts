/**
 * What a file is, from its first bytes (never from its name or the type the browser declared).
 * Review media may be JPEG, PNG, GIF, WebP or MP4 (docs/behaviour.md#validation); other images and videos are told
 * apart from files that are neither, because the spec has a message for each.
 */

export type MediaType = {
  kind: "image" | "video";
  mime: "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "video/mp4";
  ext: "jpg" | "png" | "gif" | "webp" | "mp4";
};

export type Sniffed =
  | MediaType
  /** A picture or video, but not one of the five supported formats (BMP, HEIC, MOV, WebM...). */
  | { kind: "unsupported" }
  /** Neither a picture nor a video (an executable, a PDF, text...). */
  | { kind: "other" };

/** How many leading bytes sniffMedia wants (fewer are fine when the file is shorter). */
export const SNIFF_BYTES = 64;

export const EXT_MIME: Record<MediaType["ext"], MediaType["mime"]> = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
};

const ascii = (b: Uint8Array, from: number, len: number) =>
  String.fromCharCode(...b.subarray(from, from + len));
const startsWith = (b: Uint8Array, sig: number[], at = 0) =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

/** ISO base media brands that browsers play as MP4 (H.264/H.265/AV1 in an .mp4 file). */
const MP4_BRANDS = new Set([
  "isom",
  "iso2",
  "iso3",
  "iso4",
  "iso5",
  "iso6",
  "iso7",
  "iso8",
  "iso9",
  "mp41",
  "mp42",
  "mp71",
  "avc1",
  "av01",
  "M4V ",
  "M4VH",
  "M4VP",
  "dash",
  "mmp4",
  "MSNV",
  "NDAS",
  "XAVC",
]);
/** HEIF/AVIF stills use the same box layout as MP4. */
const STILL_BRANDS = new Set([
  "heic",
  "heix",
  "heim",
  "heis",
  "hevc",
  "hevx",
  "mif1",
  "msf1",
  "avif",
  "avis",
]);

function sniffFtyp(b: Uint8Array): Sniffed {
  const boxSize = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
  const major = ascii(b, 8, 4);
  const brands = [major];
  const end = Math.min(b.length, boxSize >= 16 ? boxSize : 16);
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(b, at, 4));
  if (brands.some((x) => STILL_BRANDS.has(x)) && !MP4_BRANDS.has(major)) {
    return { kind: "unsupported" };
  }
  if (major === "qt  ") return { kind: "unsupported" }; // QuickTime .mov
  if (major.startsWith("M4A") || major === "M4B " || major === "M4P ") return { kind: "other" };
  if (brands.some((x) => MP4_BRANDS.has(x)))
    return { kind: "video", mime: "video/mp4", ext: "mp4" };
  return { kind: "unsupported" }; // 3GP, F4V, Motion JPEG 2000...
}

export function sniffMedia(b: Uint8Array): Sniffed {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return { kind: "image", mime: "image/jpeg", ext: "jpg" };
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { kind: "image", mime: "image/png", ext: "png" };
  }
  if (b.length >= 6 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) {
    return { kind: "image", mime: "image/gif", ext: "gif" };
  }
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF") {
    const form = ascii(b, 8, 4);
    if (form === "WEBP") return { kind: "image", mime: "image/webp", ext: "webp" };
    if (form === "AVI " || form === "CDXA") return { kind: "unsupported" };
    return { kind: "other" }; // WAVE audio and other RIFF files
  }
  if (b.length >= 12 && ascii(b, 4, 4) === "ftyp") return sniffFtyp(b);
  // Other pictures and videos: told apart so the message can say which formats work.
  if (
    startsWith(b, [0x42, 0x4d]) || // BMP
    startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || // TIFF (and most camera raw files)
    startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) ||
    startsWith(b, [0x00, 0x00, 0x01, 0x00]) || // ICO
    startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]) || // WebM / Matroska
    startsWith(b, [0x00, 0x00, 0x01, 0xba]) || // MPEG program stream
    startsWith(b, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20]) || // JPEG 2000
    startsWith(b, [0xff, 0x0a]) || // JPEG XL
    (b.length >= 4 && ascii(b, 0, 4) === "8BPS") || // Photoshop
    (b.length >= 3 && ascii(b, 0, 3) === "FLV")
  ) {
    return { kind: "unsupported" };
  }
  // SVG is a picture but also a script container: never stored, refused as unsupported.
  const text = new TextDecoder().decode(b.subarray(0, SNIFF_BYTES)).trimStart().toLowerCase();
  if (text.startsWith("<svg") || (text.startsWith("<?xml") && text.includes("<svg"))) {
    return { kind: "unsupported" };
  }
  return { kind: "other" };
}
