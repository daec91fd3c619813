/**
 * Server log files for the admin. A name is accepted only when it is one of the files listed in
 * the log folder, so no path can reach another folder. Large files are viewed by their tail.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { LogFileContent, LogFileInfo } from "../../contract/index.ts";
import { LOG_FILE_PATTERN } from "../../log.ts";
import { notFound } from "../../util/errors.ts";

/** The viewer shows at most this many bytes from the end of a file. */
export const LOG_VIEW_MAX_BYTES = 512 * 1024;

export function createAdminLogsService(deps: {
  logDir: string;
  activeFile: () => string | null;
  viewMaxBytes?: number;
}) {
  const viewMax = deps.viewMaxBytes ?? LOG_VIEW_MAX_BYTES;

  async function list(): Promise<LogFileInfo[]> {
    let names: string[];
    try {
      names = await fs.readdir(deps.logDir);
    } catch {
      return [];
    }
    const files: LogFileInfo[] = [];
    for (const name of names) {
      if (!LOG_FILE_PATTERN.test(name)) continue;
      try {
        const st = await fs.stat(path.join(deps.logDir, name));
        if (st.isFile()) files.push({ name, size: st.size, modified: st.mtime.toISOString() });
      } catch {
        // removed meanwhile
      }
    }
    return files.sort(
      (a, b) => b.modified.localeCompare(a.modified) || b.name.localeCompare(a.name),
    );
  }

  /** The absolute path of a listed file; 404 for anything else. */
  async function resolve(name: string): Promise<{ file: string; info: LogFileInfo }> {
    const info = (await list()).find((f) => f.name === name);
    if (!info) throw notFound("log_file_not_found");
    return { file: path.join(deps.logDir, info.name), info };
  }

  return {
    list,
    resolve,

    async read(name: string): Promise<LogFileContent> {
      const { file } = await resolve(name);
      const handle = await fs.open(file, "r");
      try {
        const { size } = await handle.stat();
        const start = Math.max(0, size - viewMax);
        const length = size - start;
        const buf = Buffer.alloc(length);
        await handle.read(buf, 0, length, start);
        let content = buf.toString("utf8");
        if (start > 0) {
          // Drop the partial first line of the tail.
          const nl = content.indexOf("\n");
          content = nl >= 0 ? content.slice(nl + 1) : content;
        }
        return {
          name,
          content,
          size,
          shownBytes: Buffer.byteLength(content),
          truncated: start > 0,
        };
      } finally {
        await handle.close();
      }
    },

    /** Deletes a file; the file being written now is emptied instead, so logging goes on. */
    async remove(name: string): Promise<{ success: true; message: string; emptied: boolean }> {
      const { file } = await resolve(name);
      const active = deps.activeFile();
      if (active && path.resolve(active) === path.resolve(file)) {
        await fs.truncate(file, 0);
        return { success: true, message: "File Deleted", emptied: true };
      }
      await fs.rm(file, { force: true });
      return { success: true, message: "File Deleted", emptied: false };
    },
  };
}
export type AdminLogsService = ReturnType<typeof createAdminLogsService>;
