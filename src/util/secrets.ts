/**
 * Secrets at rest (OAuth refresh tokens, app passwords): AES-256-GCM with a random 96-bit IV per
 * value. The key comes from SECRET_KEY (config) or from DATA_DIR/secret.key, created on first start
 * with mode 0600. Stored form: "v1:" + base64(iv | tag | ciphertext).
 *
 * Losing the key file makes stored secrets unreadable: the user reconnects the mailbox. decrypt
 * then throws SecretError, which callers treat as "no usable credential".
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const PREFIX = "v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = "secret.key";

export class SecretError extends Error {
  constructor(
    message: string,
    /** The key file is bad, a stored secret is not one of ours, is cut short, or needs another key. */
    readonly kind: "keyFile" | "format" | "truncated" | "key" = "keyFile",
  ) {
    super(message);
  }
}

/** Reads the key file, or creates it (0600) when missing. Throws with a message naming the file. */
export function loadOrCreateKeyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  let text: string | null = null;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  if (text === null) {
    fs.mkdirSync(dataDir, { recursive: true });
    const key = crypto.randomBytes(32);
    try {
      // "wx": never overwrite a key another process wrote a moment ago.
      fs.writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
      return key;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      text = fs.readFileSync(file, "utf8");
    }
  }
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== 32) {
    throw new SecretError(
      `${file} does not hold a 32-byte base64 key. Restore it from a backup, or delete it (stored mailbox credentials are then lost and mailboxes must be reconnected).`,
    );
  }
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch {
    // best effort: a read-only mount keeps its mode
  }
  return key;
}

export function createSecrets(opts: { key: Buffer | null; dataDir: string }) {
  let key = opts.key;
  const getKey = () => {
    key ??= loadOrCreateKeyFile(opts.dataDir);
    return key;
  };
  return {
    /** Loads (or creates) the key now, so a bad key file shows at start rather than later. */
    ensureKey(): void {
      getKey();
    },
    encrypt(plain: string): string {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv("aes-256-gcm", getKey(), iv);
      const enc = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), enc]).toString("base64");
    },
    decrypt(stored: string): string {
      if (!stored.startsWith(PREFIX)) throw new SecretError("Unknown secret format", "format");
      const buf = Buffer.from(stored.slice(PREFIX.length), "base64");
      if (buf.length < IV_BYTES + TAG_BYTES)
        throw new SecretError("Secret is truncated", "truncated");
      try {
        const decipher = crypto.createDecipheriv(
          "aes-256-gcm",
          getKey(),
          buf.subarray(0, IV_BYTES),
        );
        decipher.setAuthTag(buf.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([
          decipher.update(buf.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new SecretError(
          "A stored secret cannot be decrypted (the secret key changed); reconnect the mailbox",
          "key",
        );
      }
    },
  };
}
export type Secrets = ReturnType<typeof createSecrets>;
