/**
 * The English words of a server text (src/contract/text.ts), from `locales/en.json`: the sentence
 * is written once, in the catalog, and the answer carries both the words and the id with values.
 */
import type { TextPart, TextValue } from "../contract/text.ts";
import { type MessageValues, translate } from "./translate.ts";

/** A text part: its id and values (a list of clauses stays a list). */
export function text(code: string, values?: Record<string, TextValue>): TextPart {
  return values ? { code, values } : { code };
}

/** The English sentence of one text. */
export function english(part: TextPart): string {
  const values: MessageValues = {};
  for (const [key, value] of Object.entries(part.values ?? {})) {
    values[key] = Array.isArray(value) ? value.map(english).join("; ") : value;
  }
  return translate("en", part.code, values);
}

/** The English sentences of several texts, one after the other. */
export function englishAll(parts: TextPart[]): string {
  return parts.map(english).join(" ");
}

/** A text stored as JSON back as one, as API fields `<name>Code` + `<name>Values`; {} when not one. */
export function storedText(
  json: string | null,
  name: string,
): Record<string, string | Record<string, TextValue>> {
  if (!json) return {};
  try {
    const t = JSON.parse(json) as Partial<TextPart> | null;
    if (typeof t?.code !== "string") return {};
    return {
      [`${name}Code`]: t.code,
      ...(t.values && typeof t.values === "object" ? { [`${name}Values`]: t.values } : {}),
    };
  } catch {
    return {};
  }
}
