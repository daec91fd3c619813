/**
 * Calendar days in a time zone, for the server (expected delivery, review reminders, the
 * dashboard) and the web app (Just Delivered, date inputs). An unknown zone counts as UTC.
 * Days are written "YYYY-MM-DD".
 */

export type DayParts = { year: number; month: number; day: number };
type WallClock = DayParts & { hour: number; minute: number; second: number };

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      f = formatter("UTC");
    }
    if (formatters.size < 1000) formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock time of an instant in the zone. */
export function wallClock(instant: Date, timeZone: string): WallClock {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) {
    if (p.type !== "literal") out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 1970,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: (out.hour ?? 0) % 24,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

/** The calendar day of an instant in the zone. */
export function dayInZone(instant: Date, timeZone: string): DayParts {
  const { year, month, day } = wallClock(instant, timeZone);
  return { year, month, day };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

export const formatDay = (d: DayParts): string => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** "YYYY-MM-DD" of an instant in the zone (a day-only formatter: the web app's bundle stays small). */
export function isoDayInZone(instant: Date, timeZone: string): string {
  let f = dayFormatters.get(timeZone);
  if (!f) {
    const options = { year: "numeric", month: "2-digit", day: "2-digit" } as const;
    try {
      f = new Intl.DateTimeFormat("en-CA", { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat("en-CA", { ...options, timeZone: "UTC" });
    }
    if (dayFormatters.size < 1000) dayFormatters.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(instant)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day}`;
}

/** Whole days from day `a` to day `b` (both "YYYY-MM-DD"). */
export function dayDiff(a: string, b: string): number {
  const ms = (d: string) => {
    const [y, m, dd] = d.split("-").map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, dd);
  };
  return Math.round((ms(b) - ms(a)) / DAY_MS);
}

/** The zone's offset from UTC at an instant, in ms (wall clock minus UTC). */
export function offsetMs(instant: number, timeZone: string): number {
  const w = wallClock(new Date(instant), timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The first instant of the calendar day in the zone (handles DST changes at midnight). */
export function startOfDayInZone(d: DayParts, timeZone: string): Date {
  const wall = Date.UTC(d.year, d.month - 1, d.day);
  let guess = wall - offsetMs(wall, timeZone);
  guess = wall - offsetMs(guess, timeZone);
  const w = wallClock(new Date(guess), timeZone);
  const sameDay = w.year === d.year && w.month === d.month && w.day === d.day;
  // Landed on the previous evening (a gap at midnight): the day starts when the gap ends.
  if (!sameDay && Date.UTC(w.year, w.month - 1, w.day) < wall) {
    guess += ((24 - w.hour) * 60 - w.minute) * 60_000 - w.second * 1000;
  }
  return new Date(guess);
}

/** Adds whole calendar days (or months) to a day, with overflow normalised. */
export function addDays(d: DayParts, days: number): DayParts {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day) + days * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export function addMonths(d: DayParts, months: number): DayParts {
  const t = new Date(Date.UTC(d.year, d.month - 1 + months, 1));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: 1 };
}
