/**
 * Raw RFC 822 bytes → MailMessage, whatever the source (IMAP fetch, .eml upload, one message of
 * an .mbox): mailparser's simpleParser (loaded on first need), without the conversions the
 * Amazon reader does not use (HTML to text, text to HTML, links). Never throws: a message mailparser cannot read becomes the best MailMessage that can be made
 * from it (headers split by hand, the body as text).
 *
 * - messageId: the Message-ID without angle brackets, null when there is none.
 * - from: the first address of From, lower-cased (the display name as written).
 * - headers: every header line in order, lower-case name, raw value with folding undone (CRLF
 *   before white space removed). Repeated headers (Authentication-Results, Received) all stay,
 *   in order: the top Authentication-Results is the receiving server's own.
 */
import type { AddressObject } from "mailparser";
import type { MailMessage } from "./amazon/types.ts";

/** Folding undone: a CRLF (or LF) before white space removed. */
const unfold = (s: string): string => s.replace(/\r?\n(?=[ \t])/g, "");

/** One raw header line → lower-case name and value (folding undone); null if it is not one. */
export function splitHeaderLine(line: string): { name: string; value: string } | null {
  const unfolded = line.includes("\n") ? unfold(line) : line;
  const colon = unfolded.indexOf(":");
  if (colon <= 0) return null;
  const name = unfolded.slice(0, colon).trim().toLowerCase();
  if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) return null;
  let v = colon + 1;
  while (unfolded.charCodeAt(v) === 0x20 || unfolded.charCodeAt(v) === 0x09) v++;
  return { name, value: unfolded.slice(v) };
}

/** A Message-ID without its angle brackets. */
export const stripBrackets = (id: string): string =>
  id.trim().replace(/^<+/, "").replace(/>+$/, "").trim();

function firstAddress(
  from: AddressObject | AddressObject[] | undefined,
): { address: string; name: string } | null {
  const objects = Array.isArray(from) ? from : from ? [from] : [];
  for (const o of objects) {
    for (const a of o.value ?? []) {
      if (a.address) return { address: a.address.trim().toLowerCase(), name: a.name ?? "" };
      for (const g of a.group ?? []) {
        if (g.address) return { address: g.address.trim().toLowerCase(), name: g.name ?? "" };
      }
    }
  }
  return null;
}

const validDate = (d: unknown): Date | null =>
  d instanceof Date && !Number.isNaN(d.getTime()) ? d : null;

/** The fallback when mailparser gives up: header block split by hand, the rest as text. */
function byHand(raw: string): MailMessage {
  const m = /\r?\n\r?\n/.exec(raw);
  const head = m ? raw.slice(0, m.index) : raw;
  const body = m ? raw.slice(m.index + m[0].length) : "";
  const headers: MailMessage["headers"] = [];
  for (const line of head.split(/\r?\n(?![ \t])/)) {
    const h = splitHeaderLine(line);
    if (h) headers.push(h);
  }
  const get = (n: string) => headers.find((h) => h.name === n)?.value ?? null;
  const fromRaw = get("from");
  const addr = fromRaw
    ? /<([^<>\s@]{1,256}@[^<>\s]{1,256})>|([^\s<>"@]{1,256}@[^\s<>"]{1,256})/.exec(
        fromRaw.slice(0, 4000),
      )
    : null;
  const address = addr ? (addr[1] ?? addr[2] ?? "").toLowerCase() : "";
  const dateRaw = get("date");
  const id = get("message-id");
  return {
    messageId: id ? stripBrackets(id) || null : null,
    from: address ? { address, name: "" } : null,
    subject: get("subject") ?? "",
    date: dateRaw ? validDate(new Date(dateRaw)) : null,
    html: null,
    text: body || null,
    headers,
  };
}

function toText(raw: Uint8Array | string): string {
  if (typeof raw === "string") return raw;
  return new TextDecoder("latin1").decode(raw);
}

/** mailparser, loaded with the first message (~40 ms and ~9 MB not spent by an idle server). */
let mailparserModule: Promise<typeof import("mailparser")> | null = null;

export async function parseMail(raw: Uint8Array | string): Promise<MailMessage> {
  const input = typeof raw === "string" ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.length);
  mailparserModule ??= import("mailparser");
  const { simpleParser } = await mailparserModule;
  try {
    const p = await simpleParser(input, {
      skipHtmlToText: true,
      skipImageLinks: true,
      skipTextToHtml: true,
      skipTextLinks: true,
    });
    const headers: MailMessage["headers"] = [];
    for (const hl of p.headerLines ?? []) {
      const h = splitHeaderLine(hl.line);
      if (h) headers.push(h);
    }
    const id = typeof p.messageId === "string" ? stripBrackets(p.messageId) : "";
    return {
      messageId: id || null,
      from: firstAddress(p.from),
      subject: typeof p.subject === "string" ? p.subject : "",
      date: validDate(p.date),
      html: typeof p.html === "string" && p.html !== "" ? p.html : null,
      text: typeof p.text === "string" && p.text !== "" ? p.text : null,
      headers,
    };
  } catch {
    try {
      return byHand(toText(raw));
    } catch {
      return {
        messageId: null,
        from: null,
        subject: "",
        date: null,
        html: null,
        text: null,
        headers: [],
      };
    }
  }
}
