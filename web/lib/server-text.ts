/**
 * The sentences the server sends in successful answers (src/contract/text.ts: a tracking
 * summary or warning, a mailbox's last error) in the reader's language: the catalog sentence of
 * each text's id when the catalog has every id, else the server's own (English) words.
 */
import { i18n } from "@lingui/core";
import type { TextPart, TextValue } from "../../src/contract/text.ts";
import { hasMessage } from "../i18n/index.ts";

// Japanese sets sentences side by side (each ends in 。) and lists clauses with 、.
const japanese = () => i18n.locale === "ja";

function knownAll(parts: TextPart[]): boolean {
  return parts.every(
    (p) =>
      hasMessage(p.code) &&
      Object.values(p.values ?? {}).every((v) => !Array.isArray(v) || knownAll(v)),
  );
}

function say(part: TextPart): string {
  const values: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(part.values ?? {}) as [string, TextValue][]) {
    values[key] = Array.isArray(value) ? value.map(say).join(japanese() ? "、" : "; ") : value;
  }
  return i18n._(part.code, values);
}

/**
 * The texts said in the reader's language, one after the other; `words` (the server's English)
 * when there are none or the catalog lacks one of them (a newer server than this page).
 */
export function serverText(parts: TextPart[] | null | undefined, words: string): string {
  if (!parts || parts.length === 0 || !knownAll(parts)) return words;
  return parts.map(say).join(japanese() ? "" : " ");
}

/** One text given as an id and values next to its English words (`warningCode`, `warningValues`). */
export function serverSentence(
  code: string | null | undefined,
  values: Record<string, TextValue> | null | undefined,
  words: string,
): string {
  return code ? serverText([{ code, ...(values ? { values } : {}) }], words) : words;
}

/** Why the mailbox is not connected (GET /api/imap/status `lastError`) in the reader's language, or null. */
export function mailboxErrorText(
  status:
    | {
        lastError: string | null;
        lastErrorCode?: string | null;
        lastErrorValues?: Record<string, TextValue>;
      }
    | null
    | undefined,
): string | null {
  if (!status?.lastError) return null;
  return serverSentence(status.lastErrorCode, status.lastErrorValues, status.lastError);
}
