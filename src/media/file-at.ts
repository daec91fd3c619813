/**
 * Positional reads and writes on an open file, for the metadata walkers that patch media in place
 * (strip-location.ts, mp4-meta.ts): they read headers and small blocks, never whole files.
 */
import type { FileHandle } from "node:fs/promises";

/** Up to `len` bytes from `pos` (fewer at the end of the file). */
export async function readAt(fh: FileHandle, pos: number, len: number): Promise<Uint8Array> {
  const buf = new Uint8Array(len);
  const { bytesRead } = await fh.read(buf, 0, len, pos);
  return buf.subarray(0, bytesRead);
}

/** All of `data` at `pos`, however many writes it takes. */
export async function writeAt(fh: FileHandle, pos: number, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) {
    const { bytesWritten } = await fh.write(data, off, data.length - off, pos + off);
    off += bytesWritten;
  }
}

/** Bytes as Latin-1 text: one character per byte, for four-letter codes and ASCII ids. */
export const latin1 = (b: Uint8Array, from: number, len: number): string =>
  new TextDecoder("latin1").decode(b.subarray(from, from + len));
