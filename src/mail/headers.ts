/**
 * What the ingestion pipeline reads from a raw message without parsing it: the header block
 * (unfolded, in order), the Message-ID, the From address, the forward subjects, and the key of a
 * message without an id. Enough for the ledger, the sender and the spoof check (auth-check.ts);
 * most of a Takeout mbox is not Amazon's mail and is rejected from these alone.
 */
import type { MailMessage } from "./amazon/types.ts";

/** One header of the raw block: name lower-cased, value unfolded. */
export type HeaderLine = { name: string; value: string };

const HEADER_SCAN_MAX = 256 * 1024;
const utf8 = new TextDecoder("utf-8");

/** The header block of a raw message, unfolded, in order, names lower-cased. */
export function rawHeaders(bytes: Uint8Array): HeaderLine[] {
  const limit = Math.min(bytes.length, HEADER_SCAN_MAX);
  let end = limit;
  for (let i = 0; i < limit; i++) {
    if (bytes[i] !== 0x0a) continue;
    // an empty line: "\n\n" or "\n\r\n"
    if (bytes[i + 1] === 0x0a) {
      end = i + 1;
      break;
    }
    if (bytes[i + 1] === 0x0d && bytes[i + 2] === 0x0a) {
      end = i + 1;
      break;
    }
  }
  const text = utf8.decode(bytes.subarray(0, end));
  const out: HeaderLine[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === "") continue;
    if ((line[0] === " " || line[0] === "\t") && out.length > 0) {
      const last = out[out.length - 1]!;
      last.value += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    out.push({
      name: line.slice(0, colon).trim().toLowerCase(),
      value: line.slice(colon + 1).trim(),
    });
  }
  return out;
}

/** "<abc@x>" → "abc@x"; null when there is none. */
export function messageIdOf(headers: readonly HeaderLine[]): string | null {
  const v = headers.find((h) => h.name === "message-id")?.value.trim();
  if (!v) return null;
  const m = /<([^<>\s]+)>/.exec(v);
  const id = m ? m[1]! : /^\S+$/.test(v) ? v : null;
  return id && id.length <= 900 ? id : null;
}

/** The address of a From value: the last <...>, else the bare address. Lower-cased. */
export function addressOf(value: string | undefined): string | null {
  if (!value) return null;
  const angle = [...value.matchAll(/<([^<>\s]+@[^<>\s]+)>/g)].at(-1);
  if (angle) return angle[1]!.toLowerCase();
  const bare = /([^\s<>"(),;:]+@[^\s<>"(),;:]+)/.exec(value);
  return bare ? bare[1]!.toLowerCase() : null;
}

/** The domain of an address, lower-cased. */
export const domainOf = (address: string) =>
  address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** Subjects of forwarded mail: Fwd:, Fw:, FW:, WG: (German), I: (Italian), optionally tagged. */
export const FORWARD_SUBJECT = /^\s*(?:\[[^\]]*\]\s*)?(?:fwd?|wg|i)\s*:/i;

const ADDRESS_RE = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

/** True when the body quotes a message from an Amazon address (the forwarded original). */
export function quotesAmazon(msg: MailMessage, isAmazon: (a: string) => boolean): boolean {
  const body = `${msg.text ?? ""}\n${msg.html ?? ""}`.slice(0, 512 * 1024);
  for (const m of body.matchAll(ADDRESS_RE)) if (isAmazon(m[0].toLowerCase())) return true;
  return false;
}

/** The key of a message without a usable Message-ID: the SHA-256 of its raw bytes, in hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}
