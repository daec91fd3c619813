/** Small helpers every benchmark needs: command-line numbers, a free port, a process's memory. */
import fs from "node:fs";

/** `--name N` from the command line: a whole number ≥ min, else `fallback`; a bad value exits 1. */
export function intArg(name: string, fallback: number, min: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < min) {
    console.error(`${name} needs a whole number >= ${min}`);
    process.exit(1);
  }
  return v;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the one the tests use). */
export { freePort } from "../../test/support/app-process.ts";

/** VmRSS / VmHWM of a process in bytes (Linux /proc); null when it cannot be read. */
export function procMem(pid: number): { rss: number; hwm: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? 0);
    return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
  } catch {
    return null;
  }
}
