/**
 * A throwaway self-signed certificate for "localhost" (openssl, one day), for tests of servers
 * whose certificate nobody vouches for. Removes its temp folder once read.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function selfSignedCert(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gv-tls-"));
  try {
    const keyFile = path.join(dir, "key.pem");
    const certFile = path.join(dir, "cert.pem");
    const made = Bun.spawnSync(
      ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"].concat([
        "-subj",
        "/CN=localhost",
        "-keyout",
        keyFile,
        "-out",
        certFile,
      ]),
      { stderr: "pipe" },
    );
    if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
    return { key: fs.readFileSync(keyFile, "utf8"), cert: fs.readFileSync(certFile, "utf8") };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
