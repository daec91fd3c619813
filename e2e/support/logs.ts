/**
 * The server of this run writes its logs to $E2E_DATA_DIR/logs (playwright.config.ts chooses the
 * folder and passes it on to the workers). Tests may add an old log file there, as log rotation
 * would leave it, to have a file that can really be deleted (today's file is only emptied).
 */
import fs from "node:fs/promises";
import path from "node:path";

export function logDir(): string | null {
  const dataDir = process.env.E2E_DATA_DIR;
  return dataDir ? path.join(dataDir, "logs") : null;
}

/** Writes grapevine-<day>.log with these lines, dated that day. Returns the file name. */
export async function plantOldLogFile(day: string, lines: string[]): Promise<string> {
  const dir = logDir();
  if (!dir) throw new Error("E2E_DATA_DIR is not set; run the tests with playwright.config.ts");
  const name = `grapevine-${day}.log`;
  const file = path.join(dir, name);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(file, `${lines.join("\n")}\n`);
  const when = new Date(`${day}T12:00:00Z`);
  await fs.utimes(file, when, when);
  return name;
}
