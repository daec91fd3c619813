/**
 * The browser tests drive Debian's Chromium (Playwright's own browser download cannot work on
 * machines without internet). Installs it when we are root on Debian/Ubuntu; otherwise fails with
 * the exact command to run. Never skips.
 */
import fs from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const INSTALL = "apt-get update && apt-get install -y chromium fonts-liberation";

if (fs.existsSync(CHROMIUM)) process.exit(0);

const isRoot = process.getuid?.() === 0;
const hasApt = fs.existsSync("/usr/bin/apt-get");
if (isRoot && hasApt) {
  console.log(`Chromium not found at ${CHROMIUM}; installing it: ${INSTALL}`);
  const proc = Bun.spawnSync(["sh", "-c", `${INSTALL} >/tmp/grapevine-chromium-install.log 2>&1`], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (proc.exitCode === 0 && fs.existsSync(CHROMIUM)) process.exit(0);
  console.error("Installing Chromium failed; see /tmp/grapevine-chromium-install.log");
}
console.error(
  `The browser tests need Chromium at ${CHROMIUM}. Install it with:\n  sudo ${INSTALL}\nor set CHROMIUM_PATH to an installed Chromium or Chrome.`,
);
process.exit(1);
