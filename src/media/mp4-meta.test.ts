/**
 * Location out of MP4s on real files: the atom layouts phones write (64-bit and open-ended mdat,
 * mdat before moov), and files that are truncated or carry bad sizes, which must never throw and
 * may only be blanked, never reshaped.
 */
import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  indexOfBytes,
  MP4_LOCATION,
  MP4_MAKE,
  mp4,
  mp4WithLocation,
  topAtoms,
} from "../../test/support/media-files.ts";
import { stripMp4Location } from "./mp4-meta.ts";
import { sniffMedia } from "./sniff.ts";
import { stripLocation } from "./strip-location.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-mp4-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const enc = (s: string) => new TextEncoder().encode(s);
const MP4 = { kind: "video", mime: "video/mp4", ext: "mp4" } as const;

/**
 * Writes the bytes to a file, strips it as an upload is (or with stripMp4Location itself), and
 * answers what is left on disk.
 */
async function stripped(bytes: Uint8Array, direct = false): Promise<Uint8Array> {
  const file = path.join(dir, `${crypto.randomUUID()}.mp4`);
  fs.writeFileSync(file, bytes);
  const fh = await fsp.open(file, "r+");
  try {
    if (direct) await stripMp4Location(fh, bytes.length);
    else await stripLocation(fh, MP4);
  } finally {
    await fh.close();
  }
  return new Uint8Array(fs.readFileSync(file));
}

/** Every byte that changed was blanked: zeroed, a renamed `free`, or an overwritten key name. */
function onlyBlanked(before: Uint8Array, after: Uint8Array) {
  expect(after.length).toBe(before.length);
  const free = enc("free");
  for (let i = 0; i < after.length; i++) {
    if (after[i] === before[i] || after[i] === 0 || after[i] === 0x78) continue;
    let renamed = false;
    for (let j = Math.max(0, i - 3); j <= i; j++) {
      if (indexOfBytes(after.subarray(j, j + 4), free) === 0) renamed = true;
    }
    if (!renamed) throw new Error(`byte ${i} changed from ${before[i]} to ${after[i]}`);
  }
}

describe("stripMp4Location", () => {
  test("a 64-bit mdat before the moov: location gone, samples and layout untouched", async () => {
    const { bytes, mdat, samples } = mp4WithLocation({ largeMdat: true, mdatFirst: true });
    expect(topAtoms(bytes).map(([t]) => t)).toEqual(["ftyp", "mdat", "moov", "uuid"]);
    expect(new DataView(bytes.buffer).getUint32(32)).toBe(1); // the largesize form
    const after = await stripped(bytes);
    onlyBlanked(bytes, after);
    expect(indexOfBytes(after, enc("+37.3318"))).toBe(-1);
    expect(indexOfBytes(after, enc("GPSLatitude"))).toBe(-1);
    expect(indexOfBytes(after, enc(MP4_MAKE))).toBe(indexOfBytes(bytes, enc(MP4_MAKE)));
    expect(after.subarray(mdat, mdat + samples.length)).toEqual(samples);
    expect(topAtoms(after).map(([t]) => t)).toEqual(["ftyp", "mdat", "moov", "free"]);
    expect(sniffMedia(after.subarray(0, 64))).toEqual(MP4);
  });

  test("an mdat that runs to the end of the file (size 0)", async () => {
    const { bytes, mdat, samples } = mp4WithLocation({ openMdat: true });
    const after = await stripped(bytes, true);
    onlyBlanked(bytes, after);
    expect(indexOfBytes(after, enc("+37.3318"))).toBe(-1);
    expect(after.subarray(mdat)).toEqual(samples);
  });

  test("a video without location metadata is left byte for byte", async () => {
    const plain = mp4(2048);
    expect(await stripped(plain)).toEqual(plain);
  });

  test("a truncated file never throws, is only blanked, and loses the location it still holds", async () => {
    const { bytes } = mp4WithLocation({ mdatBytes: 40 });
    for (let len = 0; len <= bytes.length; len++) {
      const cut = bytes.slice(0, len);
      onlyBlanked(cut, await stripped(cut));
    }
    // Cut inside the moov's last ilst (after the location item): what is there is still cleaned.
    const cut = bytes.slice(0, indexOfBytes(bytes, enc("Model 9")) + 3);
    const after = await stripped(cut);
    expect(indexOfBytes(after, enc(MP4_LOCATION))).toBe(-1);
    expect(indexOfBytes(after, enc("+37.3318"))).toBe(-1);
    expect(indexOfBytes(after, enc(MP4_MAKE))).toBeGreaterThan(0);
  });

  test("bad sizes (too small, past the parent, past the file, absurd largesize) never throw", async () => {
    const { bytes } = mp4WithLocation({ mdatBytes: 40 });
    const at = (s: string) => indexOfBytes(bytes, enc(s)) - 4; // an atom's size field
    const withSize = (pos: number, size: number) => {
      const b = bytes.slice();
      new DataView(b.buffer).setUint32(pos, size);
      return b;
    };
    const xyz = indexOfBytes(bytes, Uint8Array.of(0xa9, 0x78, 0x79, 0x7a)) - 4;

    // A track ©xyz shorter than its header: that udta is not walked further, the rest is cleaned.
    const small = withSize(xyz, 4);
    const a = await stripped(small);
    onlyBlanked(small, a);
    expect(indexOfBytes(a, enc("+37.3318-122.0312+010.000"))).toBe(-1);

    // An XMP_ running past its udta is blanked up to the udta's end
    // (taking the software atom after it along), and nothing beyond it.
    const past = withSize(at("XMP_"), 100_000);
    const b = await stripped(past);
    onlyBlanked(past, b);
    expect(indexOfBytes(b, enc("GPSLatitude"))).toBe(-1);
    expect(indexOfBytes(b, enc("GrapevineTest 1.0"))).toBe(-1);
    expect(indexOfBytes(b, enc(MP4_MAKE))).toBe(indexOfBytes(bytes, enc(MP4_MAKE)));
    expect(topAtoms(b).map(([t]) => t)).toEqual(["ftyp", "moov", "free", "mdat"]);

    // A moov claiming more than the file: its children are still walked.
    const long = withSize(at("moov"), 0x7fffffff);
    const c = await stripped(long);
    onlyBlanked(long, c);
    expect(indexOfBytes(c, enc("+37.3318"))).toBe(-1);

    // A largesize beyond any real file: the walk stops there, nothing is written.
    const huge = bytes.slice();
    const v = new DataView(huge.buffer);
    v.setUint32(at("moov"), 1);
    v.setUint32(at("moov") + 8, 0xffffffff);
    expect(await stripped(huge)).toEqual(huge);

    // keys that cannot be read (a count past its end): every item of that ilst goes.
    const keysAt = indexOfBytes(bytes, enc("com.apple.quicktime.make")) - 12; // entry count
    const badKeys = bytes.slice();
    new DataView(badKeys.buffer).setUint32(keysAt, 999);
    const d = await stripped(badKeys);
    onlyBlanked(badKeys, d);
    expect(indexOfBytes(d, enc("+37.3318"))).toBe(-1);
    expect(indexOfBytes(d, enc(MP4_MAKE))).toBe(-1);
  });

  test("random damage to the moov never throws nor changes more than blanking", async () => {
    const { bytes } = mp4WithLocation({ mdatBytes: 40 });
    const moov = topAtoms(bytes).find(([t]) => t === "moov")!;
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const b = bytes.slice();
      for (let k = 0; k < 1 + rand(4); k++) b[moov[1] + rand(moov[2])] = rand(256);
      onlyBlanked(b, await stripped(b));
    }
  });
});
