/**
 * Field builders whose messages a person can act on. Shared by every request schema. Messages
 * are error codes with their values (`says`, src/contract/errors.ts; sentences in
 * locales/<language>.json as `error.<code>`, field labels as `error.field.<name>`).
 */
import { z } from "zod";
import { type FieldName, says } from "./errors.ts";

/** A required string with "<Label> is required" / "<Label> must be text" messages. */
export const text = (field: FieldName) =>
  z.string({
    error: (iss) =>
      iss.input === undefined
        ? says("field_required", { field })
        : says("field_not_text", { field }),
  });

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const email = () =>
  text("email")
    .trim()
    .toLowerCase()
    .min(1, says("field_required", { field: "email" }))
    .max(254, says("field_too_long", { field: "email", max: 254 }))
    .regex(EMAIL_RE, says("email_invalid"));

export const PASSWORD_MIN = 6;
export const DISPLAYNAME_MIN = 2;

export const newPassword = (field: FieldName = "password") =>
  text(field)
    .min(1, says("field_required", { field }))
    .min(PASSWORD_MIN, says("password_too_short", { min: PASSWORD_MIN }))
    .max(1024, says("password_too_long", { max: 1024 }));

export const displayname = () =>
  text("displayname")
    .trim()
    .min(1, says("field_required", { field: "displayname" }))
    .min(DISPLAYNAME_MIN, says("displayname_too_short", { min: DISPLAYNAME_MIN }))
    .max(100, says("displayname_too_long", { max: 100 }));

/**
 * Dates the API accepts (what the web app sends): a calendar day `YYYY-MM-DD`, or a full ISO
 * date-time with seconds and a zone (`2026-11-21T14:05:00Z`, `…+01:00`). Anything else, such as
 * "1" or "Tuesday 5" (which Date.parse would take), is refused.
 */
const ISO_DATE_OR_DATETIME = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
export const isIsoDateText = (v: string): boolean => ISO_DATE_OR_DATETIME.safeParse(v).success;

/**
 * Characters no text field keeps: NUL and the other C0 controls except tab, line feed and carriage
 * return, DEL, the C1 controls, the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) and lone UTF-16 surrogates. They are invisible, so a person
 * could not find them to remove them; they are stripped rather than refused. Applied by readBody
 * (src/http/validate.ts) to every string of every JSON request body.
 */
const UNWANTED_CHARS = new RegExp(
  [
    "[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]",
    "[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])",
    "(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]",
  ].join("|"),
  "g",
);

/** The text without the characters above (the same string when it has none). */
export function cleanText(s: string): string {
  UNWANTED_CHARS.lastIndex = 0;
  return UNWANTED_CHARS.test(s) ? s.replace(UNWANTED_CHARS, "") : s;
}

/**
 * A parsed JSON value with cleanText applied to every string value in it, changed in place.
 * Iterative (an explicit stack), so no nesting depth can overflow the call stack.
 */
export function cleanStrings(value: unknown): unknown {
  if (typeof value === "string") return cleanText(value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const obj = node as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      const v = obj[k];
      if (typeof v === "string") {
        const c = cleanText(v);
        if (c !== v) obj[k] = c;
      } else if (v !== null && typeof v === "object") stack.push(v);
    }
  }
  return value;
}
