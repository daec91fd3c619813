/**
 * Removes location data from an EXIF (TIFF) block, in place and without moving anything else:
 * the GPS IFD pointer (tag 0x8825) is taken out of IFD0 (and IFD1), and the GPS IFD with every
 * value it points to is overwritten with zeros. Orientation, dates and camera data stay, and no
 * offset in the block changes, so the rest of the file stays valid.
 */

const GPS_IFD_TAG = 0x8825;
/** Bytes per value of each TIFF field type (1 BYTE ... 13 IFD). */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];

export class MalformedExif extends Error {}

export function stripGpsFromTiff(tiff: Uint8Array): boolean {
  if (tiff.length < 8) throw new MalformedExif("EXIF block too short");
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = String.fromCharCode(tiff[0]!, tiff[1]!);
  if (order !== "II" && order !== "MM") throw new MalformedExif("unknown byte order");
  const le = order === "II";
  const u16 = (at: number) => {
    if (at < 0 || at + 2 > tiff.length) throw new MalformedExif("offset out of range");
    return view.getUint16(at, le);
  };
  const u32 = (at: number) => {
    if (at < 0 || at + 4 > tiff.length) throw new MalformedExif("offset out of range");
    return view.getUint32(at, le);
  };
  if (u16(2) !== 42) throw new MalformedExif("not a TIFF header");

  let changed = false;
  const ifd0 = u32(4);
  const seen = new Set<number>();
  let ifd = ifd0;
  // IFD0 and IFD1 (the thumbnail); cameras put the GPS pointer in IFD0.
  for (let n = 0; n < 2 && ifd !== 0 && !seen.has(ifd); n++) {
    seen.add(ifd);
    let count = u16(ifd);
    if (ifd + 2 + count * 12 + 4 > tiff.length) throw new MalformedExif("IFD out of range");
    for (let i = 0; i < count; ) {
      const e = ifd + 2 + i * 12;
      if (u16(e) !== GPS_IFD_TAG) {
        i++;
        continue;
      }
      zeroGpsIfd(tiff, u32(e + 8), u16, u32);
      // Entries after it (and the next-IFD pointer) move up; the freed last 12 bytes are zeroed.
      const end = ifd + 2 + count * 12 + 4;
      tiff.copyWithin(e, e + 12, end);
      tiff.fill(0, end - 12, end);
      count--;
      view.setUint16(ifd, count, le);
      changed = true;
    }
    ifd = u32(ifd + 2 + count * 12);
  }
  return changed;
}

function zeroGpsIfd(
  tiff: Uint8Array,
  at: number,
  u16: (at: number) => number,
  u32: (at: number) => number,
) {
  const count = u16(at);
  const end = at + 2 + count * 12 + 4;
  if (end > tiff.length) throw new MalformedExif("GPS IFD out of range");
  for (let i = 0; i < count; i++) {
    const e = at + 2 + i * 12;
    const size = (TYPE_SIZE[u16(e + 2)] ?? 1) * u32(e + 4);
    if (size > 4) {
      const off = u32(e + 8);
      if (off + size <= tiff.length) tiff.fill(0, off, off + size);
    }
  }
  tiff.fill(0, at, end);
}
