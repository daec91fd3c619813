/**
 * Display rules of the product spec: dates, relative times, ages, urgency, initials, money, sizes.
 * All functions are pure apart from the console.warn issued for an invalid time zone.
 */

import { intlLocale, translate } from "../i18n/index.ts";
import { safeTimeZone } from "./timezone.ts";

export type DateInput = string | number | Date | null | undefined;

/** "Never": an empty or invalid date, in the reader's language. */
export const never = (): string => translate("time.never");

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A valid Date for the input, or null when it is empty or unparseable. */
export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined) return null;
  let date: Date;
  if (value instanceof Date) {
    date = value;
  } else if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    date = new Date(value);
  } else {
    const trimmed = value.trim();
    if (trimmed === "") return null;
    date = new Date(trimmed);
  }
  return Number.isNaN(date.getTime()) ? null : date;
}

const DATE_TIME_OPTIONS: Intl.DateTimeFormatOptions = {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
};

const DATE_ONLY_OPTIONS: Intl.DateTimeFormatOptions = {
  month: "short",
  day: "numeric",
  year: "numeric",
};

const TIME_ONLY_OPTIONS: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" };

const formatterCache = new Map<string, Intl.DateTimeFormat>();

function formatter(kind: "dateTime" | "dateOnly" | "timeOnly", timeZone: string | undefined) {
  const locale = intlLocale();
  const key = `${kind}|${timeZone ?? ""}|${locale}`;
  let fmt = formatterCache.get(key);
  if (!fmt) {
    const options =
      kind === "dateTime"
        ? DATE_TIME_OPTIONS
        : kind === "dateOnly"
          ? DATE_ONLY_OPTIONS
          : TIME_ONLY_OPTIONS;
    fmt = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatterCache.set(key, fmt);
  }
  return fmt;
}

/** Newer ICU versions put U+202F / U+00A0 before "AM"/"PM"; display a plain space everywhere. */
function normalizeSpaces(text: string): string {
  return text.replace(/[\u202f\u00a0]/g, " ");
}

/** "Nov 21, 2026, 09:05 AM"; "Never" when empty or invalid. An invalid zone uses the default. */
export function formatDate(value: DateInput, timeZone?: string): string {
  const date = toDate(value);
  if (!date) return never();
  return normalizeSpaces(formatter("dateTime", safeTimeZone(timeZone)).format(date));
}

/** "Nov 21, 2026"; "Never" when empty or invalid. An invalid zone uses the default. */
export function formatDateOnly(value: DateInput, timeZone?: string): string {
  const date = toDate(value);
  if (!date) return never();
  return normalizeSpaces(formatter("dateOnly", safeTimeZone(timeZone)).format(date));
}

/** "09:05 AM" ("09:05" in German); "Never" when empty or invalid. */
export function formatTimeOnly(value: DateInput, timeZone?: string): string {
  const date = toDate(value);
  if (!date) return never();
  return normalizeSpaces(formatter("timeOnly", safeTimeZone(timeZone)).format(date));
}

/**
 * "Just now" (under a minute either way), "5m ago", "3h ago", otherwise the full date.
 * Times more than a minute in the future are shown as the full date.
 */
export function formatRelativeTime(
  value: DateInput,
  now: Date = new Date(),
  timeZone?: string,
): string {
  const date = toDate(value);
  if (!date) return never();
  const diff = now.getTime() - date.getTime();
  if (Math.abs(diff) < MINUTE_MS) return translate("time.justNow");
  if (diff < 0) return formatDate(date, timeZone);
  if (diff < HOUR_MS) return translate("time.minutesAgo", { count: Math.floor(diff / MINUTE_MS) });
  if (diff < DAY_MS) return translate("time.hoursAgo", { count: Math.floor(diff / HOUR_MS) });
  return formatDate(date, timeZone);
}

/** Whole days elapsed (floored) between value and now; null when empty or invalid. */
export function daysSince(value: DateInput, now: Date = new Date()): number | null {
  const date = toDate(value);
  if (!date) return null;
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) return null;
  return Math.floor((nowMs - date.getTime()) / DAY_MS);
}

/** "Today", "3 days ago", "2 weeks ago", "4 months ago"; "Never" when empty. */
export function ageText(value: DateInput, now: Date = new Date()): string {
  const days = daysSince(value, now);
  if (days === null) return never();
  if (days <= 0) return translate("time.today");
  if (days < 7) return translate("time.daysAgo", { count: days });
  if (days < 30) return translate("time.weeksAgo", { count: Math.min(Math.floor(days / 7), 3) });
  return translate("time.monthsAgo", { count: Math.floor(days / 30) });
}

export type UrgencyLevel = "normal" | "warning" | "critical";

export const AGE_THRESHOLDS = {
  global: { warning: 14, critical: 30 },
  received: { warning: 14, critical: 30 },
  reviewSubmitted: { warning: 7, critical: 21 },
  reviewRejected: { warning: 3, critical: 7 },
} as const;

export type AgeThresholdKind = keyof typeof AGE_THRESHOLDS;

/** "critical" at or above the critical threshold, "warning" at or above warning, else "normal". */
export function urgencyLevel(days: number | null, kind: AgeThresholdKind = "global"): UrgencyLevel {
  if (days === null || Number.isNaN(days)) return "normal";
  const { warning, critical } = AGE_THRESHOLDS[kind];
  if (days >= critical) return "critical";
  if (days >= warning) return "warning";
  return "normal";
}

/** Upper-cased first letters of the first two words: "jane q doe" → "JQ"; empty → "?". */
export function initials(displayName: string | null | undefined): string {
  const words = (displayName ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 2);
  if (words.length === 0) return "?";
  return words.map((word) => (Array.from(word)[0] ?? "").toUpperCase()).join("");
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** One Intl.NumberFormat per currency, with the currency's own decimals (¥1,980, €34.90). */
function moneyFormat(currency: string): Intl.NumberFormat {
  // The server only stores ISO 4217 codes (an unknown one would throw here).
  const locale = intlLocale();
  let f = moneyFormats.get(`${currency}|${locale}`);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: "currency", currency });
    moneyFormats.set(`${currency}|${locale}`, f);
  }
  return f;
}

/**
 * "$12.50" from a number or numeric string ("$1,234.5" → "$1,234.50") in the order's currency
 * (ISO 4217: "£12.50", "€12.50", "¥1,980", "CA$12.50", "A$12.50"); "" when not numeric.
 */
export function formatMoney(value: string | number | null | undefined, currency = "USD"): string {
  if (value === null || value === undefined) return "";
  let amount: number;
  if (typeof value === "number") {
    amount = value;
  } else {
    let text = value.trim().replace(/,/g, "");
    let negative = false;
    if (text.startsWith("-")) {
      negative = true;
      text = text.slice(1).trim();
    }
    if (text.startsWith("$")) text = text.slice(1).trim();
    if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) return "";
    amount = Number(text) * (negative ? -1 : 1);
  }
  if (!Number.isFinite(amount)) return "";
  // Avoid "-$0.00" for tiny negative amounts.
  if (Math.abs(amount) < 0.005) amount = 0;
  return moneyFormat(currency).format(amount);
}

export interface DateParts {
  year: number;
  month: number;
  day: number;
}

/** Reads "YYYY-MM-DD" (anything after "T" is ignored) without any time-zone conversion. */
export function dateOnly(value: string): DateParts {
  if (!value) throw new Error("Invalid date string");
  const datePart = value.split("T")[0] ?? "";
  const parts = datePart.split("-");
  if (parts.length !== 3 || !parts.every((part) => /^\d+$/.test(part))) {
    throw new Error("Invalid date format");
  }
  const [year, month, day] = parts.map(Number) as [number, number, number];
  return { year, month, day };
}

const BYTE_UNITS = ["KB", "MB", "GB", "TB", "PB"] as const;

/** One decimal in the reader's way ("1.5", "1,5"), never grouped ("1023.9"). */
function oneDecimal(): Intl.NumberFormat {
  const locale = intlLocale();
  let f = decimalFormats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
      useGrouping: false,
    });
    decimalFormats.set(locale, f);
  }
  return f;
}
const decimalFormats = new Map<string, Intl.NumberFormat>();

/** "0 B", "512 B", "1.5 KB", "2.0 MB", "1.2 GB" (base 1024); "1,5 KB" in German. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return "0 B";
  if (Math.round(n) < 1024) return `${Math.round(n)} B`;
  let value = n / 1024;
  let unit = 0;
  // Move up a unit also when rounding to one decimal would show "1024.0".
  while (value >= 1023.95 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${oneDecimal().format(value)} ${BYTE_UNITS[unit]}`;
}
