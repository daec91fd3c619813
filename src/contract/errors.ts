/**
 * API error codes (docs/api.md "Errors"). Every error answer is
 * `{ error, code, values, details? }`: `error` is the English sentence, `code` a stable name for
 * it and `values` the values the sentence uses. The sentence of code `c` is the message
 * `error.c` of `locales/<language>.json`, so the web app shows it in the reader's language.
 *
 * Three value names hold a key whose words are translated, not shown as they came (a label is a
 * word to translate): `field` (a form field's name: `error.field.<name>`), `status` (an order
 * status: `error.status.<status without spaces>`) and `marketplace` (a marketplace code:
 * `error.marketplace.<code>`). The sentence shows that label in the same language.
 *
 * Imported by the web app too: types and a small encoder only, no catalog.
 */
import type english from "../../locales/en.json";
import type { TextPart } from "./text.ts";

type ErrorId = Extract<keyof typeof english, `error.${string}`>;
type LabelId = Extract<
  ErrorId,
  `error.field.${string}` | `error.status.${string}` | `error.marketplace.${string}`
>;

type After<T, P extends string> = T extends `${P}${infer R}` ? R : never;

/** A code the catalog has a sentence for (a typo or a code without a sentence is a type error). */
export type ErrorCode = After<Exclude<ErrorId, LabelId>, "error.">;
/** A field label's name (`error.field.<name>`). */
export type FieldName = After<LabelId, "error.field.">;

export type ErrorValues = { field?: FieldName } & Record<string, string | number>;

const LABELS: Record<string, string> = {
  field: "error.field.",
  status: "error.status.",
  marketplace: "error.marketplace.",
};

/**
 * The values as a sentence shows them in one language: `field`, `status` and `marketplace` as
 * their labels (`label(id, value)` gives the label's message in that language).
 */
export function shownValues(
  values: ErrorValues | undefined,
  label: (id: string, value: string) => string,
): Record<string, string | number> | undefined {
  if (!values) return values;
  let shown: Record<string, string | number> | undefined;
  for (const [name, prefix] of Object.entries(LABELS)) {
    const v = values[name];
    if (typeof v !== "string") continue;
    shown ??= { ...values };
    shown[name] = label(prefix + v.replace(/\s+/g, ""), v);
  }
  return shown ?? values;
}

/** One failed check of a request body or query, by its path ("items.0.name"; "" for the whole). */
export type ErrorDetail = {
  path: string;
  message: string;
  code: ErrorCode;
  values: ErrorValues;
};

export type ErrorBody = {
  error: string;
  code: ErrorCode;
  values: ErrorValues;
  /**
   * Values that are server texts (a mail server failure in our words): the same value as a
   * catalog id and its values (src/contract/text.ts), so the sentence is said in the reader's
   * language; the value itself keeps the English words.
   */
  texts?: Record<string, TextPart>;
  details?: unknown;
};

/** The message id of a code's sentence. */
export const errorMessageId = (code: string) => `error.${code}`;

/*
 * Validation messages of the request schemas (zod) carry a code and its values in the issue's
 * message text; src/http/validate.ts reads them back and answers the English sentence. The mark
 * cannot start a sentence, so a plain message is never taken for one.
 */
const ISSUE_MARK = "\u0001";

/** A schema's validation message: the code and its values (read back by `readIssue`). */
export function says(code: ErrorCode, values?: ErrorValues): string {
  return `${ISSUE_MARK}${JSON.stringify([code, values ?? {}])}`;
}

/** The code and values of a message made by `says`, or null for any other message. */
export function readIssue(message: string): { code: ErrorCode; values: ErrorValues } | null {
  if (!message.startsWith(ISSUE_MARK)) return null;
  try {
    const [code, values] = JSON.parse(message.slice(ISSUE_MARK.length)) as [ErrorCode, ErrorValues];
    return typeof code === "string" ? { code, values: values ?? {} } : null;
  } catch {
    return null;
  }
}
