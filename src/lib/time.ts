/**
 * The canonical IANA name of a time zone ("europe/paris" → "Europe/Paris", "UTC"), or null when the
 * value is not a zone name the runtime knows. Offsets such as "+01:00" are not zone names.
 */
export function canonicalTimeZone(tz: string): string | null {
  if (!tz || tz.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz))
    return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const isValidTimeZone = (tz: string): boolean => canonicalTimeZone(tz) !== null;
