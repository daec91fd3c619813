/**
 * A notification as what it says, not as text: catalog messages (`server.*` ids in
 * `locales/<language>.json`) with their values. It is stored so (notifications.content) and
 * rendered in the reader's language each time it is read, so a user who switches language reads
 * their old notifications in the new one too; alerts render it in the receiving user's language
 * when they are queued.
 *
 * Markup in a message: `<b>…</b>` is bold, `<a>…</a>` the link of the part (left out, with its
 * text, where there is none). Every value is escaped, and so is the message's own text: a
 * translation cannot inject HTML either.
 */
import type { Language } from "../../i18n/languages.ts";
import { translate } from "../../i18n/translate.ts";
import { escapeHtml, SafeHtml } from "./html.ts";

/**
 * Text (escaped), a number (formatted by the message: `#` in a plural), a list (of texts or of
 * messages, each in the reader's language: "2 shipped, 1 delivered"), or the key of a `select`
 * (`{ choice: "yes" }` for `{hasError, select, yes {…} other {…}}`).
 */
export type MessageValue = string | number | readonly (string | MessagePart)[] | { choice: string };

/** One sentence: a `server.*` id, its values, and the page its `<a>…</a>` opens. */
export type MessagePart = {
  id: string;
  values?: Record<string, MessageValue>;
  link?: string;
};

/** A notification's sentences, in order. */
export type NotificationMessage = readonly MessagePart[];

export function part(id: string, values?: MessagePart["values"], link?: string): MessagePart {
  return link === undefined ? { id, values } : { id, values, link };
}

/** A `select`'s key: "yes" when the condition holds, else "no" (the message's `other`). */
export const yesNo = (condition: unknown): { choice: string } => ({
  choice: condition ? "yes" : "no",
});

// Private-use characters: a value's place in the formatted message, filled in after escaping.
const MARK_OPEN = "\uE000";
const MARK_CLOSE = "\uE001";
const MARK = /\uE000(\d+)\uE001/g;

function renderPart(language: Language, p: MessagePart): string {
  const inserts: string[] = [];
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(p.values ?? {})) {
    if (typeof value === "number") {
      values[name] = value;
      continue;
    }
    if (!Array.isArray(value) && typeof value === "object" && "choice" in value) {
      values[name] = value.choice;
      continue;
    }
    const text =
      typeof value === "string"
        ? escapeHtml(value)
        : value
            .map((item) =>
              typeof item === "string" ? escapeHtml(item) : renderPart(language, item),
            )
            .join(escapeHtml(translate(language, "server.listSeparator")));
    values[name] = `${MARK_OPEN}${inserts.push(text) - 1}${MARK_CLOSE}`;
  }
  const link = p.link;
  return escapeHtml(translate(language, p.id, values))
    .replace(/&lt;(\/?)b&gt;/g, "<$1strong>")
    .replace(/&lt;a&gt;(.*?)&lt;\/a&gt;/gs, (_, text: string) =>
      link ? `<a href="${escapeHtml(link)}">${text}</a>` : "",
    )
    .replace(MARK, (_, i: string) => inserts[Number(i)] ?? "");
}

/** The message as HTML in `language` (sentences joined as the language writes them). */
export function renderMessage(language: Language, message: NotificationMessage): SafeHtml {
  const gap = language === "ja" ? "" : " ";
  return new SafeHtml(
    message
      .map((p) => renderPart(language, p))
      .join(gap)
      .trim(),
  );
}

/** A stored `content` back as a message; null when it is not one (an old or damaged row). */
export function parseMessage(content: string | null): NotificationMessage | null {
  if (!content) return null;
  try {
    const value: unknown = JSON.parse(content);
    if (!Array.isArray(value)) return null;
    return value.every((p) => typeof p?.id === "string") ? (value as MessagePart[]) : null;
  } catch {
    return null;
  }
}
