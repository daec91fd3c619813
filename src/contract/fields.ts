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

// cleanText and cleanStrings live in clean-text.ts (no zod: the mail pipeline and the Vine report
// use them in a server whose request schemas are not built yet).
export { cleanStrings, cleanText } from "./clean-text.ts";
