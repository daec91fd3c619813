/**
 * How well the Amazon mail reader reads real mail ("Done when"): runs `readAmazonMail`
 * over every real sample — the project's fixtures written in the layout of public real mail
 * (test/fixtures/mail/real/<marketplace>/*.eml) and the real mail of the shared corpus
 * (../shared/corpus/emails, read in place) — and compares what it reads with
 * test/fixtures/mail/real/expected.json, which says what each mail shows.
 *
 * expected.json is keyed by file: "<marketplace>/<file>.eml" for the fixtures,
 * "corpus:<dir>/<file>" for the corpus. Each entry gives the marketplace, the kind and one entry
 * per order the mail names: its number, and where the mail shows them its items (name as shown,
 * quantity, unit price "12.34", ASIN), its total ("0.00") and its expected delivery day
 * (YYYY-MM-DD, as the mail states it relative to its Date header). A field that is null (or an
 * order without the key) is a value the mail does not show: it is not counted.
 *
 * Shares per marketplace (only over the samples where the mail shows the value):
 * - kind: the reader's kind is the expected one;
 * - order number: the set of order numbers is the expected set;
 * - items: for every order with expected items, the same names and quantities (a multiset;
 *   names compared case- and whitespace-insensitively, "…" and "..." alike; a name cut with an
 *   ellipsis is wrong when the mail shows the whole name);
 * - item prices: every expected unit price is the reader's (compared as numbers);
 * - totals: every expected order total is the reader's (as numbers);
 * - delivery dates: every expected day is the day `deliveryDayOf` makes of the reader's answer.
 */
import fs from "node:fs";
import path from "node:path";
import { parseExpectedDelivery } from "../../src/features/orders/expected-delivery.ts";
import { readAmazonMail } from "../../src/mail/amazon/reader.ts";
import type { MailFacts, MailKind, MailMessage, MailOrder } from "../../src/mail/amazon/types.ts";
import { parseMail } from "../../src/mail/parse.ts";
import { CORPUS_DIR } from "./corpus.ts";

export const REAL_DIR = path.resolve(import.meta.dir, "..", "fixtures", "mail", "real");
export const EXPECTED_FILE = path.join(REAL_DIR, "expected.json");
const CORPUS_EMAILS = path.join(CORPUS_DIR, "emails");

export type ExpectedItem = {
  name: string;
  quantity: number;
  /** Unit price "12.34"; null when the mail does not show it. */
  price: string | null;
  asin?: string | null;
};

export type ExpectedOrder = {
  number: string;
  /** null: the mail names no item of this order. */
  items?: ExpectedItem[] | null;
  total?: string | null;
  /** YYYY-MM-DD; null when the mail states no expected delivery. */
  delivery?: string | null;
};

export type Expected = {
  marketplace: string;
  kind: MailKind;
  currency?: string | null;
  orders: ExpectedOrder[];
  /** Why the values are what they are, where it is not plain from the mail. */
  note?: string;
};

export const FIELDS = ["kind", "order", "items", "prices", "totals", "delivery"] as const;
export type Field = (typeof FIELDS)[number];

/** One field of one sample: counted (the mail shows it) and right or not; with what went wrong. */
export type Check = { counted: boolean; right: boolean; detail?: string };

export type SampleResult = {
  key: string;
  marketplace: string;
  facts: MailFacts;
  checks: Record<Field, Check>;
};

export type Share = { right: number; counted: number };
export type MarketplaceScore = { marketplace: string; samples: number } & Record<Field, Share>;

/**
 * The delivery day the reader's answer means, seen from the mail's Date in the mail's own offset.
 * The one place that turns the reader's output into a day: today the reader returns
 * `expecteddeliverydatetext` and the app converts it with `parseExpectedDelivery`; if the reader
 * starts returning a day, change this function only.
 */
export function deliveryDayOf(order: MailOrder, msg: MailMessage): string | null {
  const text = order.expecteddeliverydatetext;
  if (!text || !msg.date) return null;
  return parseExpectedDelivery(text, msg.date, zoneOfDateHeader(msg));
}

/** "Etc/GMT-9" for a Date header ending in +0900 (whole hours), else UTC. */
export function zoneOfDateHeader(msg: MailMessage): string {
  const raw = msg.headers.find((h) => h.name === "date")?.value ?? "";
  const m = /([+-])(\d{2})(\d{2})\s*(?:\([^)]*\))?\s*$/.exec(raw.trim());
  if (m?.[3] !== "00") return "UTC";
  const hours = Number(m[2]);
  if (hours === 0) return "UTC";
  // Etc/GMT zones have the sign reversed: UTC+9 is "Etc/GMT-9".
  return `Etc/GMT${m[1] === "+" ? "-" : "+"}${hours}`;
}

/** Names as a person compares them: case, runs of white space and the ellipsis form ignored. */
export function sameName(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .normalize("NFKC")
      .replace(/…/g, "...")
      .replace(/[\s\u00a0\u3000\u200b-\u200f\u00ad]+/gu, " ")
      .trim()
      .toLowerCase();
  return norm(a) === norm(b);
}

const sameAmount = (a: string | null | undefined, b: string | null | undefined): boolean =>
  a != null && b != null && Number(a) === Number(b) && !Number.isNaN(Number(a));

/** The readable samples: fixtures beside expected.json, corpus files where the corpus is. */
export function loadExpected(): Record<string, Expected> {
  return JSON.parse(fs.readFileSync(EXPECTED_FILE, "utf8")) as Record<string, Expected>;
}

export function fileOf(key: string): string {
  return key.startsWith("corpus:")
    ? path.join(CORPUS_EMAILS, key.slice("corpus:".length))
    : path.join(REAL_DIR, key);
}

/** A sample as the pipeline sees it; corpus bodies saved as .html (no headers) are wrapped. */
export async function loadSample(key: string): Promise<MailMessage> {
  const buf = fs.readFileSync(fileOf(key));
  if (key.endsWith(".html")) {
    return {
      messageId: null,
      from: null,
      subject: "",
      date: null,
      html: buf.toString("utf8"),
      text: null,
      headers: [],
    };
  }
  return parseMail(buf);
}

function orderOf(facts: MailFacts, number: string): MailOrder | undefined {
  return facts.orders.find((o) => o.amazonordernumber === number);
}

/** Items right: the same (name, quantity) multiset. */
function itemsMatch(expected: ExpectedItem[], got: MailOrder["items"]): boolean {
  if (expected.length !== got.length) return false;
  const left = [...got];
  for (const e of expected) {
    const i = left.findIndex((g) => sameName(g.productname, e.name) && g.quantity === e.quantity);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

export function scoreSample(
  key: string,
  exp: Expected,
  msg: MailMessage,
  facts: MailFacts,
): SampleResult {
  const no: Check = { counted: false, right: false };
  const checks: Record<Field, Check> = {
    kind: {
      counted: true,
      right: facts.kind === exp.kind,
      detail: `kind ${facts.kind}, expected ${exp.kind} (${facts.reason})`,
    },
    order: no,
    items: no,
    prices: no,
    totals: no,
    delivery: no,
  };
  const wanted = exp.orders.map((o) => o.number).sort();
  if (wanted.length > 0) {
    const got = [...new Set(facts.orders.map((o) => o.amazonordernumber))].sort();
    checks.order = {
      counted: true,
      right: JSON.stringify(got) === JSON.stringify(wanted),
      detail: `orders [${got.join(", ")}], expected [${wanted.join(", ")}]`,
    };
  }
  const withItems = exp.orders.filter((o) => Array.isArray(o.items) && o.items.length > 0);
  if (withItems.length > 0) {
    const bad = withItems.filter(
      (o) => !itemsMatch(o.items ?? [], orderOf(facts, o.number)?.items ?? []),
    );
    checks.items = {
      counted: true,
      right: bad.length === 0,
      detail: bad
        .map(
          (o) =>
            `${o.number}: read [${(orderOf(facts, o.number)?.items ?? []).map((i) => `${i.quantity}× ${i.productname}`).join(" | ")}], expected [${(o.items ?? []).map((i) => `${i.quantity}× ${i.name}`).join(" | ")}]`,
        )
        .join("; "),
    };
  }
  const priced = exp.orders.flatMap((o) =>
    (o.items ?? []).filter((i) => i.price != null).map((i) => ({ order: o.number, item: i })),
  );
  if (priced.length > 0) {
    const bad = priced.filter(({ order, item }) => {
      const got = orderOf(facts, order)?.items.find((g) => sameName(g.productname, item.name));
      return !sameAmount(got?.price, item.price);
    });
    checks.prices = {
      counted: true,
      right: bad.length === 0,
      detail: bad
        .map(({ order, item }) => {
          const got = orderOf(facts, order)?.items.find((g) => sameName(g.productname, item.name));
          return `${item.name}: read ${got ? (got.price ?? "null") : "no such item"}, expected ${item.price}`;
        })
        .join("; "),
    };
  }
  const totals = exp.orders.filter((o) => o.total != null);
  if (totals.length > 0) {
    const bad = totals.filter((o) => !sameAmount(orderOf(facts, o.number)?.total, o.total));
    checks.totals = {
      counted: true,
      right: bad.length === 0,
      detail: bad
        .map(
          (o) =>
            `${o.number}: read ${orderOf(facts, o.number)?.total ?? "null"}, expected ${o.total}`,
        )
        .join("; "),
    };
  }
  const days = exp.orders.filter((o) => o.delivery != null);
  if (days.length > 0) {
    const bad = days.filter((o) => {
      const got = orderOf(facts, o.number);
      return !got || deliveryDayOf(got, msg) !== o.delivery;
    });
    checks.delivery = {
      counted: true,
      right: bad.length === 0,
      detail: bad
        .map((o) => {
          const got = orderOf(facts, o.number);
          return `${o.number}: read ${JSON.stringify(got?.expecteddeliverydatetext ?? null)} → ${got ? deliveryDayOf(got, msg) : "no order"}, expected ${o.delivery}`;
        })
        .join("; "),
    };
  }
  return { key, marketplace: exp.marketplace, facts, checks };
}

/** Every sample whose file is present (the corpus may be missing on a fresh clone). */
export async function scoreAll(): Promise<{ results: SampleResult[]; missing: string[] }> {
  const expected = loadExpected();
  const results: SampleResult[] = [];
  const missing: string[] = [];
  for (const [key, exp] of Object.entries(expected)) {
    if (!fs.existsSync(fileOf(key))) {
      missing.push(key);
      continue;
    }
    const msg = await loadSample(key);
    results.push(scoreSample(key, exp, msg, readAmazonMail(msg)));
  }
  return { results, missing };
}

export const MARKETPLACE_ORDER = ["US", "UK", "DE", "FR", "IT", "ES", "JP", "CA", "AU"];

export function byMarketplace(results: SampleResult[]): MarketplaceScore[] {
  return MARKETPLACE_ORDER.map((marketplace) => {
    const mine = results.filter((r) => r.marketplace === marketplace);
    const score = { marketplace, samples: mine.length } as MarketplaceScore;
    for (const f of FIELDS) {
      const counted = mine.filter((r) => r.checks[f].counted);
      score[f] = {
        counted: counted.length,
        right: counted.filter((r) => r.checks[f].right).length,
      };
    }
    return score;
  });
}

const pct = (s: Share) =>
  s.counted === 0 ? "—" : `${Math.round((100 * s.right) / s.counted)}% (${s.right}/${s.counted})`;

/** The README's table (markdown). */
export function markdownTable(scores: MarketplaceScore[]): string {
  const head =
    "| Marketplace | Real samples | Kind | Order number | Items | Item prices | Totals | Delivery dates |\n" +
    "|---|---|---|---|---|---|---|---|";
  const rows = scores.map(
    (s) =>
      `| ${s.marketplace} | ${s.samples} | ${pct(s.kind)} | ${pct(s.order)} | ${pct(s.items)} | ${pct(s.prices)} | ${pct(s.totals)} | ${pct(s.delivery)} |`,
  );
  return [head, ...rows].join("\n");
}

/** Every failed check, one line each: what the reader helper needs. */
export function failures(results: SampleResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    for (const f of FIELDS) {
      const c = r.checks[f];
      if (c.counted && !c.right) out.push(`${r.marketplace} ${f} ${r.key}: ${c.detail ?? ""}`);
    }
  }
  return out;
}
