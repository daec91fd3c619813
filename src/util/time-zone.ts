/**
 * Time-zone names, for the server (saving a user's zone) and the web app (which zone to show
 * dates in). One rule: an IANA name the runtime's Intl knows ("UTC", "Europe/Paris"); offsets
 * such as "+01:00" are not zone names.
 */

const canonical = new Map<string, string | null>();

/**
 * The canonical IANA name of a time zone ("europe/paris" → "Europe/Paris", "UTC"), or null when the
 * value is not a zone name the runtime knows.
 */
export function canonicalTimeZone(tz: unknown): string | null {
  if (typeof tz !== "string") return null;
  const known = canonical.get(tz);
  if (known !== undefined) return known;
  let out: string | null = null;
  if (tz && tz.length <= 64 && /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) {
    try {
      out = new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      out = null;
    }
  }
  if (canonical.size < 1000) canonical.set(tz, out);
  return out;
}

export const isValidTimeZone = (tz: unknown): boolean => canonicalTimeZone(tz) !== null;
