/**
 * Delivery dates in the marketplaces' languages, read with chrono-node (a leaf of the reader).
 *
 * chrono-node has parsers for every Vine marketplace's language, checked one by one on the real
 * samples' lines (test: dates.test.ts): de ("morgen", "Voraussichtlich am Mittwoch, 7. Mai",
 * "Zustellung heute 10:00 - 14:00"), fr ("demain", "jeudi 4 décembre", "aujourd'hui"), it
 * ("domani", "martedì 24 marzo 2015"), es ("mañana", "entre el 3 y el 4 de octubre"), ja ("明日",
 * "本日", "2013/06/02", "12月4日") and en. amazon.ca writes in English or French, so both are tried.
 *
 * Our own code is kept for one thing chrono does not do: choosing among several dates in one
 * line. Amazon writes a weekday beside a full date ("日曜日, 2013/06/02") and ranges ("Thursday,
 * Nov 24 - Saturday, Nov 26", "entre el 3 y el 4 de octubre"); a written day wins over a weekday
 * alone, and among equals the latest (a range's end: the parcel is due by then). The text is capped before it is
 * parsed (chrono's patterns run on at most MAX_DATE_TEXT characters).
 */
import * as chrono from "chrono-node";
import type { Marketplace } from "./types.ts";

const MAX_DATE_TEXT = 200;

type Parser = { parse: typeof chrono.parse };

const EN: Parser = chrono.en;
const LANGS: Record<Marketplace, Parser[]> = {
  US: [EN],
  UK: [chrono.en.GB, EN],
  AU: [chrono.en.GB, EN],
  CA: [EN, chrono.fr],
  DE: [chrono.de, EN],
  FR: [chrono.fr, EN],
  IT: [chrono.it, EN],
  ES: [chrono.es, EN],
  JP: [chrono.ja, EN],
  unknown: [EN],
};

const isoDay = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

/**
 * The delivery day a text names ("YYYY-MM-DD"), seen from `ref` (the mail's date; dates without
 * a year are taken on or after it), in the marketplace's language or English; null when it names
 * none (a button label such as "Lieferung verfolgen" or "Track package").
 */
export function readDeliveryDay(
  text: string,
  market: Marketplace,
  ref: Date | null,
): string | null {
  const t = text.slice(0, MAX_DATE_TEXT);
  if (!/[\p{L}\d]/u.test(t)) return null;
  const at = ref && !Number.isNaN(ref.getTime()) ? ref : new Date();
  // chrono takes about half a millisecond a text; a mailbox repeats the same few ("Arriving
  // tomorrow") day after day, so answers are kept per text, language and day of the mail.
  const key = `${market}|${isoDay(at)}|${t}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const day = parseDay(t, market, at);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, day);
  return day;
}

const MEMO_MAX = 1_000;
const memo = new Map<string, string | null>();

function parseDay(t: string, market: Marketplace, at: Date): string | null {
  for (const p of LANGS[market]) {
    let results: chrono.ParsedResult[];
    try {
      results = p.parse(t, at, { forwardDate: true });
    } catch {
      continue;
    }
    let best: Date | null = null;
    let bestRank = -1;
    for (const r of results) {
      const c = r.end ?? r.start;
      // A written day beats a weekday alone, which beats a time alone ("13h").
      const rank = c.isCertain("day") ? 2 : c.isCertain("weekday") ? 1 : 0;
      const d = c.date();
      if (Number.isNaN(d.getTime())) continue;
      if (!best || rank > bestRank || (rank === bestRank && d > best)) {
        best = d;
        bestRank = rank;
      }
    }
    if (best) return isoDay(best);
  }
  return null;
}
