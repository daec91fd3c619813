/**
 * Location data out of an MP4 (or QuickTime-style) video, in place and without changing a single
 * atom's length: the sample tables (stco/co64) point at absolute file offsets, so moving any byte
 * would break playback. Only atom headers and the small metadata atoms are read; the media data
 * (mdat, up to 100 MB) and the sample tables (under mdia) are never read.
 *
 * Where phones put the location, and what happens to it:
 * - `udta/©xyz` (ISO 6709 text, Android and older iPhones) and `udta/loci` (3GPP), in moov or a
 *   trak: renamed `free`, payload zeroed.
 * - QuickTime metadata `meta` (moov, trak or udta) with a `keys` atom: every key naming a location
 *   (`com.apple.quicktime.location.ISO6709`, `.accuracy.horizontal`, `.body`, `.note`, `.name`,
 *   `.role`, `.date`...) has its `ilst` item renamed `free` and zeroed, and its name overwritten,
 *   so no reader can pair a value with it. When `keys` cannot be read, every item of that `ilst`
 *   goes: privacy wins over keeping the camera model.
 * - XMP, which can repeat the position (exif:GPSLatitude...): the XMP `uuid` atom and `udta/XMP_`
 *   are renamed `free` and zeroed, as XMP is blanked whole in photos.
 *
 * A malformed atom (shorter than its header, or running past its parent) ends the walk of that
 * branch instead of throwing: the upload is kept and whatever was found before it is blanked.
 * Not covered: positions inside the media data itself (GoPro GPMF, dash-cam or drone telemetry
 * tracks), which would mean reading and rewriting samples.
 */
import type { FileHandle } from "node:fs/promises";
import { latin1, readAt, writeAt } from "./file-at.ts";

/** What the walk may read per file and per atom: plenty for real files, bounded for crafted ones. */
const MAX_ATOMS = 20_000;
const MAX_KEYS_BYTES = 1 << 20;
const MAX_DEPTH = 8;
const ZEROS = new Uint8Array(64 * 1024);

/** Adobe's XMP-in-ISO-BMFF uuid, BE7ACFCB-97A9-42E8-9C71-999491E3AFAC. */
const XMP_UUID = new Uint8Array(Buffer.from("be7acfcb97a942e89c71999491e3afac", "hex"));
/** Leaf atoms under udta (or named items of an iTunes-style ilst) that hold a position. */
const LOCATION_ATOMS = new Set(["\xa9xyz", "loci"]);
/** Containers walked for metadata; mdia (sample tables) and mdat are skipped on purpose. */
const CONTAINERS = new Set(["moov", "trak", "udta"]);
const FREE = new TextEncoder().encode("free");

type Atom = {
  type: string;
  /** The type as a number: an ilst item's key index. */
  code: number;
  /** File offset of the atom's first byte, of its payload (after size, type, largesize), its end. */
  at: number;
  body: number;
  end: number;
  /** The 16-byte extended type of a `uuid` atom (empty otherwise; it is part of the payload). */
  uuid: Uint8Array;
};

type Walk = { fh: FileHandle; atoms: number };

async function zeroRange(fh: FileHandle, from: number, to: number) {
  for (let pos = from; pos < to; pos += ZEROS.length) {
    await writeAt(fh, pos, ZEROS.subarray(0, Math.min(ZEROS.length, to - pos)));
  }
}
const u32 = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The atoms between `from` and `end`, read header by header. Stops (without throwing) at the
 * first header that is cut short or says it is smaller than itself. An atom running past `end`
 * (a truncated file, a bad size) is the last one, cut at `end`: its part inside can still be
 * blanked, and nothing outside the parent is ever touched.
 */
async function children(walk: Walk, from: number, end: number): Promise<Atom[]> {
  const out: Atom[] = [];
  let pos = from;
  while (pos + 8 <= end && walk.atoms < MAX_ATOMS) {
    walk.atoms++;
    const head = await readAt(walk.fh, pos, Math.min(32, end - pos));
    if (head.length < 8) break;
    const size32 = u32(head, 0);
    const type = latin1(head, 4, 4);
    let headLen = 8;
    let size = size32;
    if (size32 === 1) {
      // 64-bit largesize; beyond 2^53 it cannot be a real file.
      if (head.length < 16) break;
      const hi = u32(head, 8);
      if (hi >= 0x200000) break;
      size = hi * 2 ** 32 + u32(head, 12);
      headLen = 16;
    } else if (size32 === 0) {
      size = end - pos; // "to the end": of the file at the top, of the parent below it
    }
    if (size < headLen) break;
    let uuid = new Uint8Array(0);
    if (type === "uuid") {
      if (head.length < headLen + 16 || size < headLen + 16) break;
      uuid = head.slice(headLen, headLen + 16);
    }
    const cut = pos + size > end;
    if (pos + headLen > end) break;
    out.push({
      type,
      code: u32(head, 4),
      at: pos,
      body: pos + headLen,
      end: Math.min(pos + size, end),
      uuid,
    });
    if (cut) break;
    pos += size;
  }
  return out;
}

/** Renames the atom `free` (a type every reader skips) and zeroes everything after its header. */
async function blank(fh: FileHandle, a: Atom) {
  await writeAt(fh, a.at + 4, FREE);
  await zeroRange(fh, a.body, a.end);
}

/** True when a key of a QuickTime `keys` atom names a position. */
const isLocationKey = (name: string) => /location|iso6709|gps/i.test(name);

/**
 * The 1-based indexes of location keys in a `keys` atom, after overwriting their names; null
 * when the atom cannot be read (then every item is treated as a location).
 */
async function locationKeys(fh: FileHandle, keys: Atom): Promise<Set<number> | null> {
  const len = keys.end - keys.body;
  if (len < 8 || len > MAX_KEYS_BYTES) return null;
  const b = await readAt(fh, keys.body, len);
  if (b.length < len) return null;
  const count = u32(b, 4);
  const found = new Set<number>();
  let changed = false;
  let pos = 8;
  for (let i = 1; i <= count; i++) {
    if (pos + 8 > b.length) return null;
    const size = u32(b, pos);
    if (size < 8 || pos + size > b.length) return null;
    if (isLocationKey(latin1(b, pos + 8, size - 8))) {
      found.add(i);
      // Same length, no meaning: a reader that still pairs an item with it learns nothing.
      b.fill(0x78, pos + 8, pos + size); // "xxxx..."
      changed = true;
    }
    pos += size;
  }
  if (changed) await writeAt(fh, keys.body, b);
  return found;
}

/**
 * A `meta` atom: QuickTime writes its children straight after the header, ISO (and iTunes)
 * put a version/flags word first, always zero, where a child's size could never be.
 */
async function stripMeta(walk: Walk, meta: Atom, depth: number) {
  const first = await readAt(walk.fh, meta.body, 4);
  const iso = first.length === 4 && u32(first, 0) === 0;
  const kids = await children(walk, meta.body + (iso ? 4 : 0), meta.end);
  const keys = kids.find((a) => a.type === "keys");
  const fromKeys = keys ? await locationKeys(walk.fh, keys) : new Set<number>();
  for (const a of kids) {
    if (a.type === "ilst") {
      for (const item of await children(walk, a.body, a.end)) {
        // Items are named by key index when there is a keys atom, by four letters otherwise.
        const hit = keys
          ? fromKeys === null || fromKeys.has(item.code)
          : LOCATION_ATOMS.has(item.type);
        if (hit) await blank(walk.fh, item);
      }
    } else await stripAtom(walk, a, depth + 1);
  }
}
/** One atom below the top: blank it, walk into it, or leave it alone. */
async function stripAtom(walk: Walk, a: Atom, depth: number) {
  if (LOCATION_ATOMS.has(a.type) || a.type === "XMP_") await blank(walk.fh, a);
  else if (a.type === "uuid") {
    if (sameBytes(a.uuid, XMP_UUID)) await blank(walk.fh, a);
  } else if (depth >= MAX_DEPTH) return;
  else if (a.type === "meta") await stripMeta(walk, a, depth);
  else if (CONTAINERS.has(a.type)) {
    for (const c of await children(walk, a.body, a.end)) await stripAtom(walk, c, depth + 1);
  }
}

/**
 * Removes location metadata from an MP4 in place. `size` is the file's size. Never changes the
 * file's length or moves an atom; a file it cannot make sense of is left as it is.
 */
export async function stripMp4Location(fh: FileHandle, size: number): Promise<void> {
  const walk: Walk = { fh, atoms: 0 };
  for (const a of await children(walk, 0, size)) {
    // The top level: moov (and a stray udta/meta), Adobe's XMP uuid; mdat is only stepped over.
    if (a.type === "moov" || a.type === "udta" || a.type === "meta" || a.type === "uuid") {
      await stripAtom(walk, a, 0);
    }
  }
}
