/** Field builders whose messages a person can act on. Shared by every request schema. */
import { z } from "zod";

/** A required string with "<Label> is required" / "<Label> must be text" messages. */
export const text = (label: string) =>
  z.string({
    error: (iss) => (iss.input === undefined ? `${label} is required` : `${label} must be text`),
  });

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const email = () =>
  text("Email")
    .trim()
    .toLowerCase()
    .min(1, "Email is required")
    .max(254, "Email must be at most 254 characters")
    .regex(EMAIL_RE, "Enter a valid email address");

export const PASSWORD_MIN = 6;
export const DISPLAYNAME_MIN = 2;

export const newPassword = (label = "Password") =>
  text(label)
    .min(1, `${label} is required`)
    .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters long`)
    .max(1024, "Password must be at most 1024 characters long");

export const displayname = () =>
  text("Display name")
    .trim()
    .min(1, "Display name is required")
    .min(DISPLAYNAME_MIN, `Display name must be at least ${DISPLAYNAME_MIN} characters long`)
    .max(100, "Display name must be at most 100 characters long");

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
