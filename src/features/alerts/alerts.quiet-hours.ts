/**
 * Quiet hours: local times ("22:00"–"07:00") in the user's zone during which alerts wait, to go
 * out as one summary when they end. The zone's wall clock comes from shared/calendar-day (UTC for
 * an unknown or unset zone).
 */
import { wallClock } from "../../util/calendar-day.ts";

export type QuietHours = { start: string; end: string };

/** The channel's quiet hours, or null when it has none. */
export const quietHoursOf = (c: {
  quietStart: string | null;
  quietEnd: string | null;
}): QuietHours | null =>
  c.quietStart && c.quietEnd ? { start: c.quietStart, end: c.quietEnd } : null;

/** Minutes since local midnight in the zone. */
export function localMinutes(at: Date, timeZone: string | null): number {
  const w = wallClock(at, timeZone ?? "UTC");
  return w.hour * 60 + w.minute;
}
const hm = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));

/** When the quiet hours around `at` end, or null when `at` is outside them. */
export function quietUntil(
  at: Date,
  timeZone: string | null,
  quiet: QuietHours | null,
): Date | null {
  if (!quiet) return null;
  const m = localMinutes(at, timeZone);
  const s = hm(quiet.start);
  const e = hm(quiet.end);
  const inside = s < e ? m >= s && m < e : m >= s || m < e;
  if (!inside) return null;
  const wait = (e - m + 1440) % 1440;
  const startOfMinute = at.getTime() - (at.getTime() % 60_000);
  return new Date(startOfMinute + wait * 60_000);
}
