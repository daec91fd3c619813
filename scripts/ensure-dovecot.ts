/**
 * The mailbox tests run a real IMAP server: Debian's Dovecot 2.3, started unprivileged by
 * test/support/dovecot.ts. Installs it when we are root on Debian/Ubuntu; otherwise fails with the
 * exact command to run. Never skips.
 */
import fs from "node:fs";

export const DOVECOT = "/usr/sbin/dovecot";
const INSTALL = "apt-get update && apt-get install -y dovecot-imapd";

if (fs.existsSync(DOVECOT)) process.exit(0);

const isRoot = process.getuid?.() === 0;
const hasApt = fs.existsSync("/usr/bin/apt-get");
if (isRoot && hasApt) {
  console.log(`Dovecot not found at ${DOVECOT}; installing it: ${INSTALL}`);
  const proc = Bun.spawnSync(["sh", "-c", `${INSTALL} >/tmp/grapevine-dovecot-install.log 2>&1`], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (proc.exitCode === 0 && fs.existsSync(DOVECOT)) process.exit(0);
  console.error("Installing Dovecot failed; see /tmp/grapevine-dovecot-install.log");
}
console.error(
  `The mailbox tests need Dovecot at ${DOVECOT}. Install it with:\n  sudo apt-get install -y dovecot-imapd`,
);
process.exit(1);
