/**
 * Small media files built in code for the media tests and the upload benchmark: a JPEG with an
 * EXIF block holding orientation and a GPS position, real (viewable) PNGs, GIF and WebP headers,
 * an MP4 header with filler, an MP4 carrying a phone's location metadata, and a Windows executable.
 */
import zlib from "node:zlib";

export const GPS_LATITUDE = [51, 30, 1234]; // 51° 30' 12.34"
export const GPS_LONGITUDE = [0, 7, 5678];
export const ORIENTATION = 6;

/** Big-endian or little-endian TIFF with IFD0 {Orientation, Make, GPS pointer} and a GPS IFD. */
export function exifTiff(le = false): Uint8Array<ArrayBuffer> {
  const buf = new Uint8Array(200);
  const v = new DataView(buf.buffer);
  const u16 = (at: number, x: number) => v.setUint16(at, x, le);
  const u32 = (at: number, x: number) => v.setUint32(at, x, le);
  buf.set(new TextEncoder().encode(le ? "II" : "MM"), 0);
  u16(2, 42);
  u32(4, 8);
  // IFD0 at 8: 3 entries → 8 + 2 + 36 + 4 = 50
  u16(8, 3);
  const entry = (at: number, tag: number, type: number, count: number) => {
    u16(at, tag);
    u16(at + 2, type);
    u32(at + 4, count);
  };
  entry(10, 0x0112, 3, 1);
  u16(18, ORIENTATION);
  entry(22, 0x010f, 2, 8); // Make, out of line at 50
  u32(30, 50);
  entry(34, 0x8825, 4, 1); // GPS IFD at 58
  u32(42, 58);
  u32(46, 0); // no IFD1
  buf.set(new TextEncoder().encode("TestCam\0"), 50);
  // GPS IFD at 58: 4 entries → 58 + 2 + 48 + 4 = 112; rationals at 112 and 136
  u16(58, 4);
  entry(60, 0x0001, 2, 2);
  buf.set(new TextEncoder().encode("N\0"), 68);
  entry(72, 0x0002, 5, 3);
  u32(80, 112);
  entry(84, 0x0003, 2, 2);
  buf.set(new TextEncoder().encode("W\0"), 92);
  entry(96, 0x0004, 5, 3);
  u32(104, 136);
  u32(108, 0);
  GPS_LATITUDE.forEach((n, i) => {
    u32(112 + i * 8, n);
    u32(116 + i * 8, i === 2 ? 100 : 1);
  });
  GPS_LONGITUDE.forEach((n, i) => {
    u32(136 + i * 8, n);
    u32(140 + i * 8, i === 2 ? 100 : 1);
  });
  return buf.subarray(0, 160);
}

/** A JPEG-shaped file: SOI, APP1 Exif (with GPS), an XMP APP1 with a location, SOS, data, EOI. */
export function jpegWithGps(extra = 0): Uint8Array<ArrayBuffer> {
  const tiff = exifTiff();
  const app1 = segment(0xe1, concat(new TextEncoder().encode("Exif\0\0"), tiff));
  const xmp = segment(
    0xe1,
    new TextEncoder().encode(
      'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:Description exif:GPSLatitude="51,30.2N"/></x:xmpmeta>',
    ),
  );
  const sos = Uint8Array.of(0xff, 0xda, 0x00, 0x08, 1, 1, 0, 0, 0x3f, 0);
  const data = new Uint8Array(64 + extra).fill(0x55);
  return concat(Uint8Array.of(0xff, 0xd8), app1, xmp, sos, data, Uint8Array.of(0xff, 0xd9));
}

function segment(marker: number, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const len = payload.length + 2;
  return concat(Uint8Array.of(0xff, marker, len >> 8, len & 0xff), payload);
}

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
/** CRC-32 (PNG's); here rather than Bun.hash so that Playwright (under Node) can build PNGs too. */
export function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, data.length);
  head.set(new TextEncoder().encode(type), 4);
  const crc = new Uint8Array(4);
  new DataView(crc.buffer).setUint32(0, crc32(concat(head.subarray(4), data)));
  return concat(head, data, crc);
}

/** A real w×h PNG: a vertical gradient from one colour to another; optional eXIf chunk. */
export function png(
  w = 64,
  h = 64,
  from: [number, number, number] = [124, 58, 237],
  to: [number, number, number] = [236, 72, 153],
  exif?: Uint8Array,
): Uint8Array<ArrayBuffer> {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, w);
  v.setUint32(4, h);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = new Uint8Array(h * (1 + w * 3));
  for (let y = 0; y < h; y++) {
    const t = h === 1 ? 0 : y / (h - 1);
    const row = y * (1 + w * 3);
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        raw[row + 1 + x * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
      }
    }
  }
  return concat(
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk("IHDR", ihdr),
    ...(exif ? [pngChunk("eXIf", exif)] : []),
    pngChunk("IDAT", zlib.deflateSync(raw)),
    pngChunk("IEND", new Uint8Array(0)),
  );
}

export const gif = () =>
  concat(new TextEncoder().encode("GIF89a"), new Uint8Array(64).fill(1), Uint8Array.of(0x3b));

export function webpWithExif(): Uint8Array<ArrayBuffer> {
  const tiff = exifTiff(true);
  const chunk = (fourcc: string, data: Uint8Array) => {
    const head = new Uint8Array(8);
    head.set(new TextEncoder().encode(fourcc), 0);
    new DataView(head.buffer).setUint32(4, data.length, true);
    return concat(head, data, data.length & 1 ? Uint8Array.of(0) : new Uint8Array(0));
  };
  const vp8x = new Uint8Array(10);
  vp8x[0] = 0x08 | 0x04; // EXIF and XMP present
  const body = concat(
    new TextEncoder().encode("WEBP"),
    chunk("VP8X", vp8x),
    chunk("VP8 ", new Uint8Array(40).fill(2)),
    chunk("EXIF", tiff),
    chunk("XMP ", new TextEncoder().encode('<x:xmpmeta exif:GPSLatitude="51,30.2N"/>')),
  );
  const head = new Uint8Array(8);
  head.set(new TextEncoder().encode("RIFF"), 0);
  new DataView(head.buffer).setUint32(4, body.length, true);
  return concat(head, body);
}

/** The first bytes of an MP4 (ftyp isom + a moov/mdat header); `size` bytes in all. */
export function mp4Head(): Uint8Array<ArrayBuffer> {
  const ftyp = new Uint8Array(32);
  const v = new DataView(ftyp.buffer);
  v.setUint32(0, 32);
  ftyp.set(new TextEncoder().encode("ftypisom"), 4);
  v.setUint32(12, 0x200);
  ftyp.set(new TextEncoder().encode("isomiso2avc1mp41"), 16);
  return ftyp;
}
export function mp4(size = 4096): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  const head = mp4Head();
  out.set(head, 0);
  const v = new DataView(out.buffer);
  v.setUint32(32, size - 32);
  out.set(new TextEncoder().encode("mdat"), 36);
  for (let i = 40; i < size; i++) out[i] = (i * 31) & 0xff;
  return out;
}

export const MP4_LOCATION = "+37.3318-122.0312+010.000/"; // ISO 6709, as an iPhone writes it
export const MP4_TRACK_LOCATION = "+37.3318-122.0312/";
export const MP4_MAKE = "GrapevinePhone";
export const MP4_LOCATION_NOTE = "Kitchen table at home";

const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0)); // latin1: "©" is 0xA9
const u32be = (...xs: number[]) => {
  const b = new Uint8Array(xs.length * 4);
  for (const [i, x] of xs.entries()) new DataView(b.buffer).setUint32(i * 4, x);
  return b;
};
/** An atom: 32-bit size, four-letter type, payload. */
export function atom(type: string, ...payload: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const body = concat(...payload);
  return concat(u32be(8 + body.length), bytesOf(type), body);
}
/** A full box: version and flags (zero) before the payload. */
const fullAtom = (type: string, ...payload: Uint8Array[]) => atom(type, u32be(0), ...payload);
/** A QuickTime text atom under udta (©xyz...): 16-bit length, 16-bit language, text. */
const udtaText = (type: string, value: string) => {
  const head = new Uint8Array(4);
  new DataView(head.buffer).setUint16(0, value.length);
  new DataView(head.buffer).setUint16(2, 0x15c7); // "eng", packed
  return atom(type, head, bytesOf(value));
};
/** QuickTime metadata: meta{hdlr mdta, keys, ilst}; `iso` puts version/flags first. */
function qtMeta(entries: [key: string, value: string][], iso = false): Uint8Array<ArrayBuffer> {
  const hdlr = fullAtom("hdlr", u32be(0), bytesOf("mdta"), new Uint8Array(12), Uint8Array.of(0));
  const keys = fullAtom(
    "keys",
    u32be(entries.length),
    ...entries.map(([k]) => concat(u32be(8 + k.length), bytesOf("mdta"), bytesOf(k))),
  );
  const items = entries.map(([, v], i) => {
    const data = atom("data", u32be(1, 0), new TextEncoder().encode(v)); // type 1: UTF-8
    return concat(u32be(8 + data.length, i + 1), data);
  });
  return atom("meta", ...(iso ? [u32be(0)] : []), hdlr, keys, atom("ilst", ...items));
}
/** Adobe's uuid for XMP in an MP4 (BE7ACFCB-97A9-42E8-9C71-999491E3AFAC), written out here. */
const XMP_UUID = Buffer.from("BE7ACFCB97A942E89C71999491E3AFAC", "hex");
/** XMP repeating the position, as Adobe tools and some phones write it. */
export const MP4_XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description exif:GPSLatitude="37,19.908N" exif:GPSLongitude="122,1.872W"/></x:xmpmeta>';

export type Mp4Options = {
  /** The mdat before the moov (as a camera writes it before "fast start"). */
  mdatFirst?: boolean;
  /** The mdat with a 64-bit size (size field 1, then an 8-byte largesize). */
  largeMdat?: boolean;
  /** The mdat last, with size 0: "to the end of the file". */
  openMdat?: boolean;
  mdatBytes?: number;
};

/**
 * A small MP4 shaped like a phone's: ftyp, moov {mvhd, trak {tkhd, udta ©xyz, ISO meta with a
 * location note, mdia…stco pointing at the samples}, udta {©xyz, XMP_}, QuickTime meta with the
 * make, the ISO 6709 location and its accuracy}, an XMP uuid atom, and mdat with patterned bytes.
 * `mdat` is where the samples start in the file, as the stco says.
 */
export function mp4WithLocation(o: Mp4Options = {}): {
  bytes: Uint8Array<ArrayBuffer>;
  mdat: number;
  samples: Uint8Array<ArrayBuffer>;
} {
  const samples = new Uint8Array(o.mdatBytes ?? 3000);
  for (let i = 0; i < samples.length; i++) samples[i] = (i * 37 + 11) & 0xff;
  const mdatHead = o.largeMdat
    ? concat(u32be(1), bytesOf("mdat"), u32be(0, 16 + samples.length))
    : concat(u32be(o.openMdat ? 0 : 8 + samples.length), bytesOf("mdat"));
  const ftyp = mp4Head();
  const moovFor = (stco: number) =>
    atom(
      "moov",
      fullAtom("mvhd", u32be(0, 0, 1000, 5000), new Uint8Array(80)),
      atom(
        "trak",
        fullAtom("tkhd", u32be(0, 0, 1, 0, 5000), new Uint8Array(64)),
        atom("udta", udtaText("\xa9xyz", MP4_TRACK_LOCATION)),
        qtMeta([["com.apple.quicktime.location.note", MP4_LOCATION_NOTE]], true),
        atom("mdia", atom("minf", atom("stbl", fullAtom("stco", u32be(1, stco))))),
      ),
      atom(
        "udta",
        udtaText("\xa9xyz", MP4_LOCATION),
        atom("XMP_", bytesOf(MP4_XMP)),
        udtaText("\xa9swr", "GrapevineTest 1.0"),
      ),
      qtMeta([
        ["com.apple.quicktime.make", MP4_MAKE],
        ["com.apple.quicktime.location.ISO6709", MP4_LOCATION],
        ["com.apple.quicktime.location.accuracy.horizontal", "14.2"],
        ["com.apple.quicktime.model", "Model 9"],
      ]),
    );
  const xmp = atom("uuid", XMP_UUID, bytesOf(MP4_XMP));
  const moovLen = moovFor(0).length;
  if (o.mdatFirst) {
    const at = ftyp.length + mdatHead.length;
    return {
      bytes: concat(ftyp, mdatHead, samples, moovFor(at), xmp),
      mdat: at,
      samples,
    };
  }
  const at = ftyp.length + moovLen + xmp.length + mdatHead.length;
  return { bytes: concat(ftyp, moovFor(at), xmp, mdatHead, samples), mdat: at, samples };
}

/** The top-level atoms of an MP4 as [type, offset, size], for checking nothing moved. */
export function topAtoms(b: Uint8Array): [string, number, number][] {
  const out: [string, number, number][] = [];
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  for (let at = 0; at + 8 <= b.length; ) {
    let size = v.getUint32(at);
    if (size === 1) size = Number(v.getBigUint64(at + 8));
    if (size === 0) size = b.length - at;
    out.push([String.fromCharCode(...b.subarray(at + 4, at + 8)), at, size]);
    if (size < 8) break;
    at += size;
  }
  return out;
}

/** A Windows executable's first bytes ("MZ" header) with a harmless body. */
export const exe = () =>
  concat(new TextEncoder().encode("MZ\x90\0\x03\0\0\0"), new Uint8Array(200));

/** Finds a byte sequence. */
export function indexOfBytes(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The rational bytes of GPS_LATITUDE as stored (big-endian), to prove they are gone. */
export function latitudeBytes(le = false): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(24);
  const v = new DataView(b.buffer);
  GPS_LATITUDE.forEach((n, i) => {
    v.setUint32(i * 8, n, le);
    v.setUint32(i * 8 + 4, i === 2 ? 100 : 1, le);
  });
  return b;
}
