/**
 * Secrets at rest (AES-256-GCM with the key file or SECRET_KEY) and the mailbox's settings
 * (SECRET_KEY, GMAIL_IMAP_*) as the configuration reads them.
 */
import { describe, expect, test } from "bun:test";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { createSecrets, SecretError } from "../../src/util/secrets.ts";

describe("secrets at rest and configuration", () => {
  test("AES-256-GCM: round trip, a fresh IV each time, tampering and a wrong key are refused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-secrets-"));
    try {
      const a = createSecrets({ key: null, dataDir: dir });
      const one = a.encrypt("abcd efgh ijkl mnop");
      const two = a.encrypt("abcd efgh ijkl mnop");
      expect(one).not.toBe(two);
      expect(a.decrypt(one)).toBe("abcd efgh ijkl mnop");
      const keyFile = path.join(dir, "secret.key");
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      // A second start reads the same key file.
      expect(createSecrets({ key: null, dataDir: dir }).decrypt(two)).toBe("abcd efgh ijkl mnop");

      const raw = Buffer.from(one.slice(3), "base64");
      raw[raw.length - 1]! ^= 1;
      expect(() => a.decrypt(`v1:${raw.toString("base64")}`)).toThrow(SecretError);
      const other = createSecrets({ key: crypto.randomBytes(32), dataDir: dir });
      expect(() => other.decrypt(one)).toThrow(SecretError);
      expect(() => a.decrypt("plain text")).toThrow(SecretError);

      fs.writeFileSync(keyFile, "too short\n");
      expect(() => createSecrets({ key: null, dataDir: dir }).ensureKey()).toThrow(/32-byte/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 15_000);

  test("SECRET_KEY and GMAIL_IMAP_* are read and checked; a bad value is one line", () => {
    const key = crypto.randomBytes(32).toString("base64");
    const c = loadConfig({ DATA_DIR: "/tmp/x", SECRET_KEY: key });
    expect(c.secretKey?.toString("base64")).toBe(key);
    expect(c.gmailImap).toEqual({ host: "imap.gmail.com", port: 993, tls: true });
    expect(loadConfig({ DATA_DIR: "/tmp/x" }).secretKey).toBeNull();
    const custom = loadConfig({
      DATA_DIR: "/tmp/x",
      GMAIL_IMAP_HOST: "imap.example.test",
      GMAIL_IMAP_PORT: "1143",
      GMAIL_IMAP_TLS: "false",
    });
    expect(custom.gmailImap).toEqual({ host: "imap.example.test", port: 1143, tls: false });
    for (const [env, msg] of [
      [{ SECRET_KEY: "c2hvcnQ=" }, "SECRET_KEY must be 32 bytes"],
      [{ SECRET_KEY: "not base64!" }, "SECRET_KEY must be 32 bytes"],
      [{ GMAIL_IMAP_PORT: "99999" }, "GMAIL_IMAP_PORT must be a whole number"],
      [{ GMAIL_IMAP_TLS: "maybe" }, "GMAIL_IMAP_TLS must be true or false"],
    ] as const) {
      let err: unknown;
      try {
        loadConfig({ DATA_DIR: "/tmp/x", ...env });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(msg);
      expect((err as Error).message).not.toContain("\n");
    }
  }, 15_000);
});
