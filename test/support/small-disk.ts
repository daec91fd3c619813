/**
 * A real small file system for full-disk tests: a tmpfs of a few MB mounted on a temp folder.
 * Needs root (CI and the dev container run tests as root); `mountSmallDisk` returns the reason
 * when the machine does not allow it, so the test can say so.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type SmallDisk = {
  dir: string;
  /** Free bytes as the app sees them. */
  free: () => number;
  /** Writes zeros to `file` until at most `leaveBytes` are free (0: until the disk is full). */
  fill: (file: string, leaveBytes?: number) => void;
  unmount: () => void;
};

export function mountSmallDisk(sizeMb: number): SmallDisk | { reason: string } {
  if (process.getuid?.() !== 0) return { reason: "the tests do not run as root" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-disk-"));
  const r = Bun.spawnSync([
    "mount",
    "-t",
    "tmpfs",
    "-o",
    `size=${sizeMb}m,mode=0755`,
    "tmpfs",
    dir,
  ]);
  if (r.exitCode !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { reason: `mount -t tmpfs failed: ${r.stderr.toString().trim() || r.exitCode}` };
  }
  const free = () => {
    const s = fs.statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  };
  return {
    dir,
    free,
    fill(file, leaveBytes = 0) {
      const fd = fs.openSync(file, "a");
      const chunk = Buffer.alloc(64 * 1024);
      try {
        for (;;) {
          const room = free() - leaveBytes;
          if (room <= 0) return;
          try {
            fs.writeSync(fd, chunk, 0, Math.min(chunk.length, room));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === "ENOSPC") return;
            throw err;
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    unmount() {
      Bun.spawnSync(["umount", "-l", dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
