/**
 * Time-zone rules of the product spec.
 *
 * - Signed-out visitors see times in their browser's zone.
 * - Signed-in users see times in their saved preference, falling back to the browser zone.
 * - The preference picker offers a fixed list of zones (TIMEZONES); a new preference defaults to
 *   the browser zone when it is in that list, otherwise to America/Chicago.
 * - An invalid zone never throws: callers fall back to the browser default with a warning.
 */
import { TRACKING_FALLBACK_TIMEZONE, TRACKING_TIMEZONES } from "../../src/contract/constants.ts";
import { isValidTimeZone } from "../../src/util/time-zone.ts";

/** The zones the preference picker offers (docs/behaviour.md#constants-and-limits); decided in the contract. */
export const TIMEZONES = TRACKING_TIMEZONES;

export type PreferenceTimeZone = (typeof TIMEZONES)[number];

export const TIMEZONE_LABELS: Readonly<Record<PreferenceTimeZone, string>> = {
  "America/New_York": "Eastern Time (New York)",
  "America/Chicago": "Central Time (Chicago)",
  "America/Denver": "Mountain Time (Denver)",
  "America/Los_Angeles": "Pacific Time (Los Angeles)",
  "America/Phoenix": "Mountain Time - no DST (Phoenix)",
  "America/Anchorage": "Alaska Time (Anchorage)",
  "Pacific/Honolulu": "Hawaii Time (Honolulu)",
  "Europe/London": "UK Time (London)",
  "Europe/Paris": "Central European Time (Paris)",
  "Europe/Berlin": "Central European Time (Berlin)",
  "Asia/Tokyo": "Japan Time (Tokyo)",
  "Asia/Shanghai": "China Time (Shanghai)",
  "Australia/Sydney": "Australian Eastern Time (Sydney)",
};

/** Zone used for new preferences when the browser zone is not one of TIMEZONES. */
export const FALLBACK_PREFERENCE_TIME_ZONE: PreferenceTimeZone = TRACKING_FALLBACK_TIMEZONE;

/** Zone used when nothing else can be determined. */
export const UTC = "UTC";

export function isPreferenceTimeZone(tz: unknown): tz is PreferenceTimeZone {
  return typeof tz === "string" && (TIMEZONES as readonly string[]).includes(tz);
}

/** The browser's IANA zone, or "UTC" when Intl cannot tell. */
export function detectBrowserTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof zone === "string" && zone.trim() !== "" ? zone : UTC;
  } catch {
    return UTC;
  }
}

/** True for any time zone name Intl knows (src/util/time-zone.ts decides, for the server too). */
export { isValidTimeZone };

/** The zone a new preference starts with. */
export function defaultPreferenceTimeZone(
  browserZone: string = detectBrowserTimeZone(),
): PreferenceTimeZone {
  return isPreferenceTimeZone(browserZone) ? browserZone : FALLBACK_PREFERENCE_TIME_ZONE;
}

export interface EffectiveTimeZoneOptions {
  signedIn: boolean;
  savedZone?: string | null;
  /** Defaults to detectBrowserTimeZone(). */
  browserZone?: string;
}

/** The zone in which times are displayed to the current visitor. */
export function effectiveTimeZone(opts: EffectiveTimeZoneOptions): string {
  if (opts.signedIn && isValidTimeZone(opts.savedZone)) return opts.savedZone as string;
  const browserZone = opts.browserZone ?? detectBrowserTimeZone();
  return isValidTimeZone(browserZone) ? browserZone : UTC;
}

const warnedZones = new Set<string>();

/**
 * `tz` when it is a valid zone; otherwise undefined, so that Intl uses the browser default.
 * An invalid (non-empty) zone is reported with console.warn once per distinct value.
 */
export function safeTimeZone(tz: string | null | undefined): string | undefined {
  if (tz === null || tz === undefined || tz === "") return undefined;
  if (isValidTimeZone(tz)) return tz;
  if (!warnedZones.has(tz)) {
    warnedZones.add(tz);
    console.warn(`Invalid time zone "${tz}"; falling back to the browser default.`);
  }
  return undefined;
}

export interface TrackingTimeOption {
  /** 24-hour "HH:MM". */
  value: string;
  /** 12-hour, e.g. "9:30 AM". */
  label: string;
}

export const DEFAULT_TRACKING_TIME = "09:00";

function trackingTimeLabel(hour: number, minute: number): string {
  const suffix = hour < 12 ? "AM" : "PM";
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${hour12}:${String(minute).padStart(2, "0")} ${suffix}`;
}

/** Every half hour of the day, "00:00" through "23:30". */
export const TRACKING_TIME_OPTIONS: readonly TrackingTimeOption[] = Array.from(
  { length: 48 },
  (_, i) => {
    const hour = Math.floor(i / 2);
    const minute = (i % 2) * 30;
    return {
      value: `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`,
      label: trackingTimeLabel(hour, minute),
    };
  },
);
