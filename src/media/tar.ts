/**
 * A POSIX ustar archive as a stream: files are read from disk in pieces while the archive is sent,
 * so an export with large videos is never held in memory. `tar -xf`, 7-Zip and Windows' built-in
 * tar open it.
 */
import fsp from "node:fs/promises";

export type TarEntry =
  | { name: string; mtime: Date; data: Uint8Array }
  | { name: string; mtime: Date; file: string; size: number };

const BLOCK = 512;
const CHUNK = 256 * 1024;

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, "0")}\0`;
}

export function tarHeader(name: string, size: number, mtime: Date): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const put = (s: string, at: number, width: number) => {
    const bytes = new TextEncoder().encode(s);
    if (bytes.length > width) throw new Error(`tar field too long: ${s}`);
    h.set(bytes, at);
  };
  let prefix = "";
  let base = name;
  if (new TextEncoder().encode(name).length > 100) {
    const cut = name.lastIndexOf("/", 155);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  put(base, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12);
  put("        ", 148, 8); // checksum field counts as spaces
  put("0", 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  put(prefix, 345, 155);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
  return h;
}

const padding = (size: number) => new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);

export function tarStream(entries: TarEntry[]): ReadableStream<Uint8Array> {
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (const e of entries) {
      if ("data" in e) {
        yield tarHeader(e.name, e.data.length, e.mtime);
        yield e.data;
        yield padding(e.data.length);
        continue;
      }
      const fh = await fsp.open(e.file, "r");
      try {
        yield tarHeader(e.name, e.size, e.mtime);
        let left = e.size;
        while (left > 0) {
          const buf = new Uint8Array(Math.min(CHUNK, left));
          const { bytesRead } = await fh.read(buf, 0, buf.length, e.size - left);
          if (bytesRead === 0) throw new Error(`${e.file} shrank while it was being exported`);
          left -= bytesRead;
          yield buf.subarray(0, bytesRead);
        }
        yield padding(e.size);
      } finally {
        await fh.close();
      }
    }
    yield new Uint8Array(BLOCK * 2);
  }
  const it = parts();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await it.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await it.return(undefined);
    },
  });
}
