/**
 * The data folder is private to the app's user: folders 0700, files 0600 (database, WAL, SHM,
 * logs, media, backups, the key). main.ts sets the process umask to 077 so that everything created
 * from then on is owner-only, and `privateDataDir` fixes what an older version (or a copy made
 * by hand) left readable by others, at every start.
 */
import fs from "node:fs";
import path from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` and everything under it owner-only. Symbolic links are neither followed nor
 * changed. Returns how many modes were changed.
 */
export function privateDataDir(dir: string): number {
  let changed = 0;
  const fix = (p: string, want: number, mode: number) => {
    if ((mode & 0o777) === want) return;
    fs.chmodSync(p, want);
    changed++;
  };
  const walk = (d: string) => {
    fix(d, PRIVATE_DIR_MODE, fs.lstatSync(d).mode);
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) fix(p, PRIVATE_FILE_MODE, fs.lstatSync(p).mode);
    }
  };
  walk(dir);
  return changed;
}
