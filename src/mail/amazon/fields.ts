/**
 * Stage 4 of the Amazon mail reader (with items.ts and text-items.ts): the fields of one order —
 * its total, ship-to, estimate, tracking and dates — each looked for in the order's line ranges
 * of the flat document (doc.ts). Amounts are read by money.ts, delivery days by dates.ts. Every pattern runs on one line at a time
 * (lines are capped at MAX_LINE_CHARS) and has no nested unbounded quantifiers, so hostile mail
 * cannot make it backtrack.
 */
import type { Carrier } from "../../contract/index.ts";
import { detectCarrier } from "../../tracking/carrier-detect.ts";
import { readDeliveryDay } from "./dates.ts";
import { clean } from "./doc.ts";
import { findMoney, isMoneyOnly, readNumber } from "./money.ts";
import { joinedList } from "./phrases.ts";
import type { Marketplace } from "./types.ts";

const MAX_ADDRESS_CHARS = 300;
const MAX_ESTIMATE_CHARS = 200;
/** Estimate labels whose text is given to the date parser, per order and range. */
const MAX_DATE_TRIES = 8;

// ---------------------------------------------------------------------------------------------
// Prices (money.ts reads them; these keep the fields' signatures short)

/** "1,234.56", "1.234,56", "107,34", "12" → "1234.56", "1234.56", "107.34", "12.00". */
export const normalisePrice = (raw: string, market: Marketplace = "unknown"): string | null =>
  readNumber(raw, market);

/** The first price written in `s` (symbol or code before or after the amount). */
export function findPrice(
  s: string,
  market: Marketplace = "unknown",
): { value: string; index: number; end: number } | null {
  return findMoney(s, market);
}

// ---------------------------------------------------------------------------------------------
// Fields, each looked for in a set of line ranges

export type Range = [number, number];

export function* rangeLines(lines: string[], ranges: Range[]): Generator<[number, string]> {
  for (const [a, b] of ranges) {
    for (let i = Math.max(0, a); i < Math.min(b, lines.length); i++) yield [i, lines[i] ?? ""];
  }
}

/**
 * Total labels, strongest first. A label may carry a qualifier before its colon ("Totale IVA
 * inclusa (ove applicabile):", "Order Total (incl. VAT):"); the amount follows on the same line
 * or alone on the next. Subtotals, totals before tax and per-payment lines never count.
 */
const TOTAL_STRONG = new RegExp(`(?:^|[^\\p{L}])(?:${joinedList("totalLabel")})(?!\\p{L})`, "giu");
const TOTAL_WEAK = new RegExp(`(?:^|[^\\p{L}])(?:${joinedList("totalWord")})(?!\\p{L})`, "giu");
const NOT_TOTAL = new RegExp(joinedList("notTotal"), "iu");
/** What may stand between a label and its amount: a strong label's qualifier in words before a
 * colon; after a weak one, only a parenthesis ("Total (incl. VAT):"). */
const STRONG_TAIL = /^(?:[^\d:：]{0,60}[:：])?\s*/u;
const WEAK_TAIL = /^\s*(?:[(（][^)）]{0,40}[)）])?\s*[:：]?\s*/u;

export function findTotal(
  lines: string[],
  ranges: Range[],
  market: Marketplace = "unknown",
): string | null {
  for (const [re, tailRe] of [
    [TOTAL_STRONG, STRONG_TAIL],
    [TOTAL_WEAK, WEAK_TAIL],
  ] as const) {
    for (const [i, line] of rangeLines(lines, ranges)) {
      if (line.length > 300 || NOT_TOTAL.test(line)) continue;
      re.lastIndex = 0;
      for (const m of line.matchAll(re)) {
        const after = line.slice((m.index ?? 0) + m[0].length);
        const tail = tailRe.exec(after)?.[0] ?? "";
        const rest = after.slice(tail.length);
        if (rest === "") {
          const next = lines[i + 1] ?? "";
          if (isMoneyOnly(next, market)) return findMoney(next, market)?.value ?? null;
          continue;
        }
        const p = findMoney(rest, market);
        if (p && p.index <= 2) return p.value;
      }
    }
  }
  return null;
}

const SHIP_TO_LABEL = new RegExp(`^(?:${joinedList("shipTo")})(?![\\p{L}])\\s*:?\\s*(.*)$`, "iu");
const ADDRESS_STOP =
  /^(?:order|track|arriving|arrives|shipment|total|price|payment|paid|your |estimated|delivery|view|change|manage|return|qty|quantity|item|just ask|chiedi|alexa|ordine|totale|riepilogo|bestell|gesamt|commande|sold by|condition|dispatch|shipping|placed on)\b|:$/i;

export function findShipTo(
  lines: string[],
  ranges: Range[],
  markerLines: number[],
  linkLines: Set<number>,
): string | null {
  for (const [i, line] of rangeLines(lines, ranges)) {
    const m = SHIP_TO_LABEL.exec(line);
    if (!m) continue;
    const parts: string[] = [];
    if (m[1]) parts.push(m[1]);
    for (let j = i + 1; j < lines.length && parts.length < 5; j++) {
      const l = lines[j] ?? "";
      if (l.length > 100 || ADDRESS_STOP.test(l) || findMoney(l) || /https?:/.test(l)) break;
      if (linkLines.has(j)) break;
      parts.push(l);
    }
    const s = parts.join(", ").slice(0, MAX_ADDRESS_CHARS).trim();
    if (s) return s;
  }
  // 2025 templates: "Arriving Thursday" / "Elliot - OAKLAND, CA" / "Order # 113-…".
  for (const ml of markerLines) {
    const prev = lines[ml - 1] ?? "";
    const prev2 = lines[ml - 2] ?? "";
    if (
      prev.length <= 120 &&
      / [-–] /.test(prev) &&
      !findMoney(prev) &&
      /^(?:arriving|arrives|arrived|delivered|out for delivery|now arriving|dispatched|shipped)\b/i.test(
        prev2,
      )
    ) {
      return prev.slice(0, MAX_ADDRESS_CHARS);
    }
  }
  return null;
}

const ARRIVING_LINE = /^(?:now )?(?:arriving|arrives)(?: early)?\b\s*:?\s*(.*)$/i;
/**
 * The estimate lines of the other marketplaces, kept whole ("Livraison prévue : jeudi 4 décembre",
 * "Arriverà martedì 01 dicembre", "Zustellung heute", "お届け予定日: 2025/12/04"): the text is
 * what the user reads; expected-delivery.ts turns the local words into a day.
 */
const LOCAL_ESTIMATE_LINE = new RegExp(
  `^(?:${joinedList("estimateLine")})(?=[\\s:：]|$)\\s*[:：]?\\s*(.*)$`,
  "iu",
);
const ESTIMATE_LABEL_AT_END = new RegExp(
  `(?:${joinedList("estimateLabelAtEnd")})\\s*[:：]?$`,
  "iu",
);
const NOW_EXPECTED = /\bnow expected\s+([^.]{3,80})/i;
const DELIVERED_TODAY = /\bwill be delivered (today|tomorrow)\b/i;
const WITHIN_DAYS = /\bwithin (\d{1,3}) (?:business |working )?days\b/i;

const tidyEstimate = (s: string): string =>
  clean(s)
    .replace(/[.!]+$/, "")
    .slice(0, MAX_ESTIMATE_CHARS)
    .trim();

/** A date line, joined with the next when it ends a range ("Wednesday, October 27 -"). */
function dateLineAt(lines: string[], j: number): string | null {
  const l = lines[j];
  if (!l || l.length > 120) return null;
  if (/[-–]$/.test(l) && lines[j + 1] && (lines[j + 1] ?? "").length <= 80) {
    return `${l} ${lines[j + 1]}`;
  }
  return l;
}

export type Estimate = {
  /** The estimate as the mail writes it (what the user reads). */
  text: string | null;
  /** The day it names, read with chrono-node from the mail's date (dates.ts); null when none. */
  day: string | null;
  /** An estimate label was seen whose date could not be read (MailFacts.unread "delivery-date"). */
  unreadLabel: boolean;
};

/**
 * The expected delivery of an order: the first estimate line whose text names a day. A line that
 * only looks like one ("Lieferung verfolgen", the track button's label after "Lieferung") names
 * none, so it is passed over and the search goes on.
 */
export function findEstimate(
  lines: string[],
  ranges: Range[],
  market: Marketplace = "unknown",
  ref: Date | null = null,
): Estimate {
  let unreadLabel = false;
  let tries = 0;
  const dated = (text: string): Estimate | null => {
    // chrono reads a label's text in about half a millisecond: a few labels per order, never
    // thousands (hostile mail can repeat a label on every line).
    if (++tries > MAX_DATE_TRIES) return null;
    const t = tidyEstimate(text);
    const day = readDeliveryDay(t, market, ref);
    if (day) return { text: t, day, unreadLabel: false };
    unreadLabel = true;
    return null;
  };
  for (const [i, line] of rangeLines(lines, ranges)) {
    if (line.length > 600) continue;
    const local = LOCAL_ESTIMATE_LINE.exec(line);
    if (local) {
      const found =
        (local[1] ?? "").trim() !== ""
          ? dated(line)
          : (() => {
              const next = dateLineAt(lines, i + 1);
              return next ? dated(`${line} ${next}`) : null;
            })();
      if (found) return found;
      continue;
    }
    const a = ARRIVING_LINE.exec(line);
    if (a) {
      const rest = (a[1] ?? "").trim();
      const text = rest !== "" ? line : dateLineAt(lines, i + 1);
      if (text)
        return {
          text: tidyEstimate(text),
          day: readDeliveryDay(text, market, ref),
          unreadLabel: false,
        };
    }
    if (ESTIMATE_LABEL_AT_END.test(line)) {
      const next = dateLineAt(lines, i + 1);
      const found = next ? dated(next) : null;
      if (found) return found;
      continue;
    }
    const ne = NOW_EXPECTED.exec(line);
    if (ne?.[1]) {
      const text = tidyEstimate(ne[1]);
      return { text, day: readDeliveryDay(text, market, ref), unreadLabel: false };
    }
    const dt = DELIVERED_TODAY.exec(line);
    if (dt?.[1]) {
      const text = dt[1].toLowerCase();
      return { text, day: readDeliveryDay(text, "US", ref), unreadLabel: false };
    }
    const wd = WITHIN_DAYS.exec(line);
    if (wd) {
      const text = tidyEstimate(wd[0]);
      return { text, day: readDeliveryDay(text, "US", ref), unreadLabel: false };
    }
  }
  return { text: null, day: null, unreadLabel };
}

const TRACKING_LABEL = new RegExp(
  `(?:${joinedList("trackingLabel")})\\s*(?:is|è|ist|est|es)?\\s*[:：]?\\s*([A-Z0-9][A-Z0-9 -]{6,45})`,
  "iu",
);
const AMAZON_LOGISTICS_NUMBER = /\bTB[ACM]\d{12}\b/;
const CARRIER_STATED = new RegExp(
  `(?:${joinedList("carrierStated")})\\s+(\\p{L}[\\p{L}0-9&.' -]{1,40})`,
  "iu",
);
const CARRIER_LABEL = new RegExp(
  `(?:^|\\s)(?:${joinedList("carrierLabel")})\\s*[:：]\\s*(\\p{L}[\\p{L}0-9&.' -]{1,40})`,
  "iu",
);

/** A tracking number as printed, reduced to letters and digits, or null when it is not one. */
function tidyTracking(raw: string): string | null {
  const tokens = raw.trim().split(/\s+/);
  let s = tokens[0] ?? "";
  for (const t of tokens.slice(1)) {
    if (/^\d+$/.test(t)) s += t;
    else break;
  }
  s = s.replace(/-/g, "").toUpperCase();
  if (!/^[A-Z0-9]{8,40}$/.test(s)) return null;
  if ((s.match(/\d/g) ?? []).length < 4) return null;
  return s;
}

/** Names (and local spellings) of the carriers, most specific first. */
const CARRIER_NAMES: Array<[RegExp, Carrier]> = [
  [/\bups\b|united parcel/i, "UPS"],
  [/fed\s?ex/i, "FEDEX"],
  [/\busps\b|postal service/i, "USPS"],
  [/amazon|\bamzl\b/i, "AMAZON"],
  [/\bdhl\b|deutsche post/i, "DHL"],
  [/\bhermes\b/i, "HERMES"],
  [/\bevri\b/i, "EVRI"],
  [/\bdpd\b/i, "DPD"],
  [/\bgls\b/i, "GLS"],
  [/royal mail|parcelforce/i, "ROYALMAIL"],
  [/chronopost/i, "CHRONOPOST"],
  [/poste italiane|\bposte\b.*\bitaliane\b/i, "POSTEITALIANE"],
  [/colissimo|la poste/i, "LAPOSTE"],
  [/correos/i, "CORREOS"],
  [/\bseur\b/i, "SEUR"],
  [/\bsda\b/i, "SDA"],
  [/\bbrt\b|bartolini/i, "BRT"],
  [/yamato|ヤマト|クロネコ/i, "YAMATO"],
  [/sagawa|佐川/i, "SAGAWA"],
  [/japan post|日本郵便|ゆうパック|ゆうパケット/i, "JAPANPOST"],
  [/canada post|postes canada/i, "CANADAPOST"],
  [/purolator/i, "PUROLATOR"],
  [/australia post|auspost/i, "AUSPOST"],
];

function carrierFromName(name: string): Carrier {
  for (const [re, c] of CARRIER_NAMES) if (re.test(name)) return c;
  return "OTHER";
}

const carrierName = (raw: string): string =>
  (raw.split(/[,.;:()]| and | e | und | et | y /i)[0] ?? "").trim();

export function findTracking(
  lines: string[],
  ranges: Range[],
): { trackingnumber: string | null; carrier: Carrier | null } {
  let tracking: string | null = null;
  let stated: string | null = null;
  let labelled: string | null = null;
  for (const [, line] of rangeLines(lines, ranges)) {
    if (!tracking) {
      const m = TRACKING_LABEL.exec(line);
      if (m?.[1]) tracking = tidyTracking(m[1]);
    }
    if (!stated) {
      const c = CARRIER_STATED.exec(line);
      if (c?.[1]) stated = carrierName(c[1]) || null;
    }
    if (!labelled) {
      const c = CARRIER_LABEL.exec(line);
      if (c?.[1]) labelled = carrierName(c[1]) || null;
    }
  }
  if (!tracking) {
    for (const [, line] of rangeLines(lines, ranges)) {
      const m = AMAZON_LOGISTICS_NUMBER.exec(line);
      if (m) {
        tracking = m[0];
        break;
      }
    }
  }
  let carrier: Carrier | null = null;
  if (labelled) carrier = carrierFromName(labelled);
  else if (stated && tracking) carrier = carrierFromName(stated);
  else if (tracking) carrier = detectCarrier(tracking);
  return { trackingnumber: tracking, carrier };
}

// ---------------------------------------------------------------------------------------------
// Dates

const MONTHS: Record<string, number> = {
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  may: 5,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function isoDay(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.toISOString();
}

/** "December 11, 2018" / "11 December 2018" (year given) → ISO midnight UTC. */
function dateWithYear(s: string): string | null {
  const a = /\b([A-Za-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b/.exec(s);
  if (a) {
    const mo = MONTHS[(a[1] ?? "").toLowerCase()];
    if (mo) return isoDay(Number(a[3]), mo, Number(a[2]));
  }
  const b = /\b(\d{1,2}) ([A-Za-z]{3,9})\.? (\d{4})\b/.exec(s);
  if (b) {
    const mo = MONTHS[(b[2] ?? "").toLowerCase()];
    if (mo) return isoDay(Number(b[3]), mo, Number(b[1]));
  }
  return null;
}

const PLACED_ON =
  /^(?:placed on|order placed|order date|ordered on|date ordered)\s*:?\s*(.{6,60})$/i;

export function findPlacedOn(lines: string[], ranges: Range[]): string | null {
  for (const [, line] of rangeLines(lines, ranges)) {
    const m = PLACED_ON.exec(line);
    if (m?.[1]) {
      const d = dateWithYear(m[1]);
      if (d) return d;
    }
  }
  return null;
}

const DELIVERED_ON =
  /^(?:delivered|your package was delivered|consegnato|zugestellt)(?: on)?\s*:?\s*(?:[A-Za-z]+day,? )?([A-Za-z]{3,9})\.? (\d{1,2})(?:,? (\d{4}))?\b/i;

/** A delivery date the body states ("Delivered Friday, September 11"); else null. */
export function findDeliveredOn(
  lines: string[],
  ranges: Range[],
  mailDate: Date | null,
): string | null {
  for (const [, line] of rangeLines(lines, ranges)) {
    const m = DELIVERED_ON.exec(line);
    if (!m) continue;
    const mo = MONTHS[(m[1] ?? "").toLowerCase()];
    if (!mo) continue;
    const day = Number(m[2]);
    let year = m[3] ? Number(m[3]) : mailDate ? mailDate.getUTCFullYear() : null;
    if (year === null) continue;
    if (!m[3] && mailDate && Date.UTC(year, mo - 1, day) > mailDate.getTime() + 2 * 86_400_000) {
      year -= 1;
    }
    if (
      mailDate &&
      mailDate.getUTCFullYear() === year &&
      mailDate.getUTCMonth() === mo - 1 &&
      mailDate.getUTCDate() === day
    ) {
      return mailDate.toISOString();
    }
    return isoDay(year, mo, day);
  }
  return null;
}
