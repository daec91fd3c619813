/**
 * Safety net after the browser tests: the Dovecot started by e2e/support/server.ts runs in its
 * own session, so if the web server was killed hard it would outlive the run. Kill its process
 * group by the PID it recorded.
 */
import fs from "node:fs";
import path from "node:path";

export default async function globalTeardown() {
  const file = path.join(process.env.E2E_DATA_DIR ?? "", "e2e-mailbox.json");
  let pid: number | undefined;
  try {
    pid = (JSON.parse(fs.readFileSync(file, "utf8")) as { pid?: number }).pid;
  } catch {
    return;
  }
  if (!pid || pid <= 1) return;
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    try {
      process.kill(-pid, signal);
    } catch {
      return; // already gone
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
