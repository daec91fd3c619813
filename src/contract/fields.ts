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
