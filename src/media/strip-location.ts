/**
 * Location data out of a stored photo or video, before it is kept: these end up on a public review
 * page. Works in place on the (temp) file and reads only the metadata parts, never the picture or
 * the media data:
 *
 * - JPEG: the GPS IFD of the EXIF segment (exif.ts; orientation stays); XMP segments, which can
 *   repeat the location, are blanked.
 * - PNG: the same for an eXIf chunk; XMP text chunks are blanked and renamed to a private chunk
 *   type that viewers skip; CRCs are recomputed.
 * - WebP: the same for the EXIF chunk; an XMP chunk is blanked and renamed JUNK, and its flag in
 *   VP8X cleared.
 * - MP4: mp4-meta.ts, which renames and zeroes the location atoms (udta ©xyz, QuickTime location
 *   keys and their values, XMP) without changing any length, so the sample offsets stay right.
 *
 * An EXIF block that cannot be read is blanked whole: privacy wins over keeping camera data.
 */
import type { FileHandle } from "node:fs/promises";
import { MalformedExif, stripGpsFromTiff } from "./exif.ts";
import { latin1, readAt, writeAt } from "./file-at.ts";
import { stripMp4Location } from "./mp4-meta.ts";
import type { MediaType } from "./sniff.ts";

const EXIF_HEADER = "Exif\0\0";
const XMP_IDS = ["http://ns.adobe.com/xap/1.0/\0", "http://ns.adobe.com/xmp/extension/\0"];

/** Strips GPS from an EXIF block in place; a block that cannot be read is blanked. */
function cleanTiff(tiff: Uint8Array): boolean {
  try {
    return stripGpsFromTiff(tiff);
  } catch (err) {
    if (!(err instanceof MalformedExif)) throw err;
    tiff.fill(0);
    return true;
  }
}

async function stripJpeg(fh: FileHandle, size: number) {
  let pos = 2;
  while (pos + 4 <= size) {
    const head = await readAt(fh, pos, 4);
    if (head[0] !== 0xff) return; // not a marker: leave the rest alone
    const marker = head[1]!;
    if (marker === 0xff) {
      pos++; // fill byte
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return; // image data starts: no metadata after it
    const len = (head[2]! << 8) | head[3]!;
    if (len < 2) return;
    if (marker === 0xe1) {
      const data = await readAt(fh, pos + 4, len - 2);
      if (latin1(data, 0, 6) === EXIF_HEADER) {
        if (cleanTiff(data.subarray(6))) await writeAt(fh, pos + 4, data);
      } else if (XMP_IDS.some((id) => latin1(data, 0, id.length) === id)) {
        await writeAt(fh, pos + 4, new Uint8Array(data.length));
      }
    }
    pos += 2 + len;
  }
}

const BLANKED_PNG_CHUNK = "gvNl"; // ancillary, private, safe-to-copy: viewers skip it
const XMP_PNG_KEYWORDS = ["XML:com.adobe.xmp", "Raw profile type exif", "Raw profile type xmp"];

async function stripPng(fh: FileHandle, size: number) {
  let pos = 8;
  while (pos + 12 <= size) {
    const head = await readAt(fh, pos, 8);
    const len = new DataView(head.buffer).getUint32(0);
    const type = latin1(head, 4, 4);
    if (type === "IEND" || pos + 12 + len > size) return;
    const isText = type === "iTXt" || type === "tEXt" || type === "zTXt";
    if (type === "eXIf" || isText) {
      const data = await readAt(fh, pos + 8, len);
      let newType = type;
      let changed = false;
      if (type === "eXIf") changed = cleanTiff(data);
      else {
        const nul = data.indexOf(0);
        const keyword = latin1(data, 0, nul < 0 ? Math.min(80, data.length) : nul);
        if (XMP_PNG_KEYWORDS.includes(keyword)) {
          data.fill(0);
          newType = BLANKED_PNG_CHUNK;
          changed = true;
        }
      }
      if (changed) {
        const typeBytes = new TextEncoder().encode(newType);
        const crcInput = new Uint8Array(4 + len);
        crcInput.set(typeBytes, 0);
        crcInput.set(data, 4);
        const crc = new Uint8Array(4);
        new DataView(crc.buffer).setUint32(0, Bun.hash.crc32(crcInput) >>> 0);
        await writeAt(fh, pos + 4, typeBytes);
        await writeAt(fh, pos + 8, data);
        await writeAt(fh, pos + 8 + len, crc);
      }
    }
    pos += 12 + len;
  }
}

async function stripWebp(fh: FileHandle, size: number) {
  let pos = 12;
  let vp8xFlagsAt = -1;
  while (pos + 8 <= size) {
    const head = await readAt(fh, pos, 8);
    const fourcc = latin1(head, 0, 4);
    const len = new DataView(head.buffer).getUint32(4, true);
    if (pos + 8 + len > size) return;
    if (fourcc === "VP8X") vp8xFlagsAt = pos + 8;
    if (fourcc === "EXIF") {
      const data = await readAt(fh, pos + 8, len);
      const tiff = latin1(data, 0, 6) === EXIF_HEADER ? data.subarray(6) : data;
      if (cleanTiff(tiff)) await writeAt(fh, pos + 8, data);
    } else if (fourcc === "XMP ") {
      await writeAt(fh, pos, new TextEncoder().encode("JUNK"));
      await writeAt(fh, pos + 8, new Uint8Array(len));
      if (vp8xFlagsAt >= 0) {
        const flags = await readAt(fh, vp8xFlagsAt, 1);
        await writeAt(fh, vp8xFlagsAt, Uint8Array.of(flags[0]! & ~0x04));
      }
    }
    pos += 8 + len + (len & 1);
  }
}

/** Removes location metadata from the file in place (GIF has nowhere to keep it). */
export async function stripLocation(fh: FileHandle, type: MediaType): Promise<void> {
  const { size } = await fh.stat();
  if (type.mime === "image/jpeg") await stripJpeg(fh, size);
  else if (type.mime === "image/png") await stripPng(fh, size);
  else if (type.mime === "image/webp") await stripWebp(fh, size);
  else if (type.mime === "video/mp4") await stripMp4Location(fh, size);
}
