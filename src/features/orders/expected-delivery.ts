/**
 * Expected delivery from free text (docs/behaviour.md#data, docs/behaviour.md#constants-and-limits), and the calendar helpers for "today in the
 * user's time zone" that the orders and dashboard services share. Pure functions: no I/O, no clock.
 *
 * parseExpectedDelivery understands, case-insensitively:
 * - "today", "tomorrow", "Arriving tomorrow"
 * - "within N days", "in N days" (N from 0 to 365)
 * - a month and day: "November 24", "Nov 24", "Nov. 24th", "Monday, November 24", "24 November"
 *   (UK mail), with an optional year ("November 24, 2026"), or an ISO date "2026-11-24"; without a
 *   year, the year that puts the date nearest to today (late-December mail saying "January 3"
 *   means next year)
 * - a weekday: "Arriving Thursday", "Thu" → the next such day on or after today
 * - ranges: "Thursday, Nov 24 - Saturday, Nov 26", "Nov 24-26", "24-26 November", "Nov 30 - Dec 2",
 *   "Tuesday - Thursday" → the later date
 * - the same in the Vine marketplaces' languages: French, German, Italian and Spanish
 *   month and weekday names and "aujourd'hui / heute / oggi / hoy", "demain / morgen / domani /
 *   mañana" ("Livraison prévue : jeudi 4 décembre", "Zustellung: Donnerstag, 4. Dezember",
 *   "Arriverà martedì 01 dicembre", "Llegada: jueves, 4 de diciembre"), and Japanese dates
 *   ("お届け予定日 2013/06/02", "12月4日", "本日", "明日"): `localToEnglish` rewrites them first
 * Anything else, and any result outside [1 January of last year, 31 December of next year], gives
 * null. Explicit dates win over relative words, which win over weekday names.
 */
import { addDays, type DayParts, dayInZone, formatDay } from "../../util/calendar-day.ts";

const DAY_MS = 86_400_000;

/** Longer texts are not delivery estimates; refusing them keeps the work bounded. */
export const EXPECTED_DELIVERY_TEXT_MAX = 200;
export const WITHIN_DAYS_MAX = 365;

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

const WEEKDAYS: Record<string, number> = {
  sun: 0,
  sunday: 0,
  mon: 1,
  monday: 1,
  tue: 2,
  tues: 2,
  tuesday: 2,
  wed: 3,
  weds: 3,
  wednesday: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
};

/** Month, weekday and relative words of the other marketplaces' languages, in English. */
const LOCAL_WORDS: Record<string, string> = {
  // French
  janvier: "january",
  janv: "january",
  février: "february",
  fevrier: "february",
  févr: "february",
  mars: "march",
  avril: "april",
  avr: "april",
  mai: "may",
  juin: "june",
  juillet: "july",
  juil: "july",
  août: "august",
  aout: "august",
  septembre: "september",
  octobre: "october",
  novembre: "november",
  décembre: "december",
  decembre: "december",
  déc: "december",
  lundi: "monday",
  mardi: "tuesday",
  mercredi: "wednesday",
  jeudi: "thursday",
  vendredi: "friday",
  samedi: "saturday",
  dimanche: "sunday",
  "aujourd'hui": "today",
  "aujourd’hui": "today",
  demain: "tomorrow",
  // German
  januar: "january",
  jänner: "january",
  februar: "february",
  märz: "march",
  juni: "june",
  juli: "july",
  oktober: "october",
  dezember: "december",
  montag: "monday",
  dienstag: "tuesday",
  mittwoch: "wednesday",
  donnerstag: "thursday",
  freitag: "friday",
  samstag: "saturday",
  sonnabend: "saturday",
  sonntag: "sunday",
  heute: "today",
  morgen: "tomorrow",
  // Italian
  gennaio: "january",
  febbraio: "february",
  marzo: "march",
  aprile: "april",
  maggio: "may",
  giugno: "june",
  luglio: "july",
  agosto: "august",
  settembre: "september",
  ottobre: "october",
  dicembre: "december",
  lunedì: "monday",
  lunedi: "monday",
  martedì: "tuesday",
  martedi: "tuesday",
  mercoledì: "wednesday",
  mercoledi: "wednesday",
  giovedì: "thursday",
  giovedi: "thursday",
  venerdì: "friday",
  venerdi: "friday",
  sabato: "saturday",
  domenica: "sunday",
  oggi: "today",
  domani: "tomorrow",
  // Spanish
  enero: "january",
  febrero: "february",
  abril: "april",
  mayo: "may",
  junio: "june",
  julio: "july",
  septiembre: "september",
  setiembre: "september",
  octubre: "october",
  noviembre: "november",
  diciembre: "december",
  lunes: "monday",
  martes: "tuesday",
  miércoles: "wednesday",
  miercoles: "wednesday",
  jueves: "thursday",
  viernes: "friday",
  sábado: "saturday",
  domingo: "sunday",
  hoy: "today",
  mañana: "tomorrow",
};

const LOCAL_WORD_SCAN = new RegExp(
  `(?<![\\p{L}])(${Object.keys(LOCAL_WORDS)
    .sort((a, b) => b.length - a.length)
    .join("|")})\\.?(?![\\p{L}])`,
  "giu",
);

/**
 * Local date words and formats in the English ones the parser reads: month and weekday names,
 * today/tomorrow, "4. Dezember" and "4 de diciembre" → "4 december", "2025/12/04" → "2025-12-04",
 * "12月4日" → "december 4", "本日" / "明日" → today / tomorrow.
 */
export function localToEnglish(text: string): string {
  return text
    .replace(
      /\b(\d{4})\/(\d{1,2})\/(\d{1,2})\b/g,
      (_m, y: string, mo: string, d: string) => `${y}-${mo.padStart(2, "0")}-${d.padStart(2, "0")}`,
    )
    .replace(/(\d{1,2})月(\d{1,2})日/g, (_m, mo: string, d: string) => {
      const name = Object.keys(MONTHS).find((k) => k.length > 3 && MONTHS[k] === Number(mo));
      return name ? ` ${name} ${d} ` : _m;
    })
    .replace(/本日|今日/g, " today ")
    .replace(/明日/g, " tomorrow ")
    .replace(LOCAL_WORD_SCAN, (w) => LOCAL_WORDS[w.toLowerCase().replace(/\.$/, "")] ?? w)
    .replace(/\b(\d{1,2})\.(?=\s+[a-z])/gi, "$1")
    .replace(/\b(\d{1,2})\s+de\s+(?=[a-z])/gi, "$1 ");
}

/* ------------------------------------------------------------------------------------------------
 * The parser
 * --------------------------------------------------------------------------------------------- */

const serial = (d: DayParts) => Date.UTC(d.year, d.month - 1, d.day) / DAY_MS;

function exists(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  const t = new Date(Date.UTC(year, month - 1, day));
  return t.getUTCMonth() === month - 1 && t.getUTCDate() === day;
}

/**
 * The year for a month and day without one: nearest to today, or, when `notBefore` is given (the
 * end of a range), the nearest one on or after it. Null when the day exists in none (Feb 30).
 */
function chooseYear(month: number, day: number, today: DayParts, notBefore?: DayParts) {
  let best: DayParts | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const year of [today.year - 1, today.year, today.year + 1, today.year + 2]) {
    if (!exists(year, month, day)) continue;
    const cand = { year, month, day };
    if (notBefore && serial(cand) < serial(notBefore)) continue;
    const distance = notBefore
      ? serial(cand) - serial(notBefore)
      : Math.abs(serial(cand) - serial(today));
    // On a tie the later date wins: deliveries are in the future more often than not.
    if (distance < bestDistance || (distance === bestDistance && best && year > best.year)) {
      best = cand;
      bestDistance = distance;
    }
  }
  return best;
}

type Mention = { month: number; day: number; year?: number; rangeToPrevious: boolean };

const MONTH_RE =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const DAY_RE = "(\\d{1,2})(?:st|nd|rd|th)?(?![\\d:])";
const DASH_RE = "\\s*(?:-|–|—|to|through|until|and)\\s*";
const YEAR_RE = "(?:,?\\s+(\\d{4})(?!\\d))?";

/** One pass over the text, left to right; each alternative names its groups by position. */
const DATE_SCAN = new RegExp(
  [
    // 1-3: ISO 2026-11-24
    "\\b(\\d{4})-(\\d{2})-(\\d{2})\\b",
    // 4-6(+7): "24-26 November [2026]"
    `\\b${DAY_RE}${DASH_RE}${DAY_RE}\\s+(?:of\\s+)?${MONTH_RE}(?![a-z])${YEAR_RE}`,
    // 8-10(+11): "November 24-26 [2026]"
    `\\b${MONTH_RE}\\s+${DAY_RE}${DASH_RE}${DAY_RE}(?!\\s*(?:am|pm|a\\.m|p\\.m)\\b)${YEAR_RE}`,
    // 12-13(+14): "November 24 [, 2026]"
    `\\b${MONTH_RE}\\s+${DAY_RE}${YEAR_RE}`,
    // 15-16(+17): "24 November [2026]"
    `\\b${DAY_RE}\\s+(?:of\\s+)?${MONTH_RE}(?![a-z])${YEAR_RE}`,
  ].join("|"),
  "gi",
);

const monthOf = (s: string | undefined) => (s ? MONTHS[s.toLowerCase().replace(".", "")] : 0) ?? 0;

function scanDates(text: string): Mention[] {
  const out: Mention[] = [];
  let lastEnd = -1;
  for (const m of text.matchAll(DATE_SCAN)) {
    const start = m.index ?? 0;
    // Joined to the previous mention by a dash or "to": the two are a range.
    const between = lastEnd >= 0 ? text.slice(lastEnd, start) : "";
    const rangeToPrevious =
      lastEnd >= 0 && /^[\s,]*(?:-|–|—|to|through|until)[\s,]*(?:[a-z]+\.?,?\s*)?$/i.test(between);
    const year = (s: string | undefined) => (s ? Number(s) : undefined);
    if (m[1]) {
      out.push({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), rangeToPrevious });
    } else if (m[4]) {
      const month = monthOf(m[6]);
      out.push({ month, day: Number(m[4]), year: year(m[7]), rangeToPrevious });
      out.push({ month, day: Number(m[5]), year: year(m[7]), rangeToPrevious: true });
    } else if (m[8]) {
      const month = monthOf(m[8]);
      out.push({ month, day: Number(m[9]), year: year(m[11]), rangeToPrevious });
      out.push({ month, day: Number(m[10]), year: year(m[11]), rangeToPrevious: true });
    } else if (m[12]) {
      out.push({ month: monthOf(m[12]), day: Number(m[13]), year: year(m[14]), rangeToPrevious });
    } else if (m[15]) {
      out.push({ month: monthOf(m[16]), day: Number(m[15]), year: year(m[17]), rangeToPrevious });
    }
    lastEnd = start + m[0].length;
  }
  return out;
}

/** Resolves month-day mentions; a range's end never falls before its start. The latest wins. */
function resolveDates(mentions: Mention[], today: DayParts): DayParts | null {
  let latest: DayParts | null = null;
  let previous: DayParts | null = null;
  for (const m of mentions) {
    let d: DayParts | null;
    if (m.year !== undefined) {
      d = exists(m.year, m.month, m.day) ? { year: m.year, month: m.month, day: m.day } : null;
    } else {
      d = chooseYear(m.month, m.day, today, m.rangeToPrevious && previous ? previous : undefined);
    }
    if (!d) return null;
    if (m.rangeToPrevious && previous && serial(d) < serial(previous)) return null;
    if (!latest || serial(d) > serial(latest)) latest = d;
    previous = d;
  }
  return latest;
}

const WEEKDAY_SCAN =
  /\b(sun(?:day)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:s|nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?)\b\.?/gi;

function resolveWeekdays(text: string, today: DayParts): DayParts | null {
  let current: DayParts | null = null;
  for (const m of text.matchAll(WEEKDAY_SCAN)) {
    const wd = WEEKDAYS[(m[1] ?? "").toLowerCase()];
    if (wd === undefined) continue;
    // The first weekday is on or after today; each later one (a range) on or after the previous.
    const from: DayParts = current ?? today;
    const fromWd = new Date(Date.UTC(from.year, from.month - 1, from.day)).getUTCDay();
    current = addDays(from, (wd - fromWd + 7) % 7);
  }
  return current;
}

function resolveRelative(text: string, today: DayParts): DayParts | null | undefined {
  const n = /\b(?:within|in)\s+(\d{1,6})\s+(?:calendar\s+)?days?\b/i.exec(text);
  if (n) {
    const days = Number(n[1]);
    return days >= 0 && days <= WITHIN_DAYS_MAX ? addDays(today, days) : null;
  }
  if (/\btomorrow\b/i.test(text)) return addDays(today, 1);
  if (/\btoday\b/i.test(text)) return today;
  return undefined;
}

/**
 * The expected delivery day ("YYYY-MM-DD") that a text such as "Arriving Thursday" means, seen
 * from `now` in `timeZone`; null when the text does not say a day we can tell.
 */
export function parseExpectedDelivery(text: string, now: Date, timeZone: string): string | null {
  if (typeof text !== "string") return null;
  const raw = text.replace(/\s+/g, " ").trim();
  if (raw === "" || raw.length > EXPECTED_DELIVERY_TEXT_MAX) return null;
  const t = localToEnglish(raw).replace(/\s+/g, " ").trim();
  if (Number.isNaN(now.getTime())) return null;
  const today = dayInZone(now, timeZone);

  let result: DayParts | null | undefined;
  const mentions = scanDates(t);
  if (mentions.length > 0) {
    result = resolveDates(mentions, today);
  } else {
    result = resolveRelative(t, today);
    if (result === undefined) result = resolveWeekdays(t, today);
  }
  if (!result) return null;

  const lo = serial({ year: today.year - 1, month: 1, day: 1 });
  const hi = serial({ year: today.year + 1, month: 12, day: 31 });
  const s = serial(result);
  if (s < lo || s > hi) return null;
  return formatDay(result);
}
