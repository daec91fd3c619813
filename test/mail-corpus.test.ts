/**
 * The Amazon mail reader against the public mail corpus in ../shared/corpus/emails (beside the
 * project root; CI always has it; never copied into the project). MANIFEST.csv has one row per
 * file: marketplace, kind, whether it carries an order number, a product link, etc.
 *
 * Checked, file by file:
 * - every Amazon order confirmation, shipment, out-for-delivery, delivery and delay mail yields
 *   the manifest's kind and exactly one order (or, where the manifest says so, several), whose
 *   number is the one the manifest names, or, where the manifest names none, one printed in the
 *   message itself (never an invented one);
 * - where the manifest says the only products are recommendations, no item has an ASIN; where it
 *   says the ordered item is linked, at least one item has an ASIN;
 * - the marketplace is the manifest's;
 * - negatives yield no order: mail from UPS/FedEx/USPS/Walmart and forwards are refused by the
 *   sender rule (isAmazonSender on From) before the reader is asked; Hub/locker notices,
 *   one-time passwords, refunds and Subscribe & Save notices are "other" with no order.
 * Known exceptions are listed in KNOWN with the reason; the table of results is printed.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { readAmazonMail } from "../src/mail/amazon/reader.ts";
import { isAmazonSender } from "../src/mail/amazon/senders.ts";
import type { MailFacts, MailKind, MailMessage } from "../src/mail/amazon/types.ts";
import { parseMail } from "../src/mail/parse.ts";
import { CORPUS_DIR, corpusAvailable } from "./support/corpus.ts";
import { parseCsv } from "./support/csv.ts";

const EMAILS = path.join(CORPUS_DIR, "emails");
const MANIFEST = path.join(EMAILS, "MANIFEST.csv");

type Row = Record<
  | "dir"
  | "file"
  | "marketplace"
  | "kind"
  | "order_number"
  | "product_name"
  | "asin_or_product_link"
  | "price"
  | "notes",
  string
>;

type Expectation =
  | { type: "order"; kind: MailKind }
  | { type: "other" }
  | { type: "not-amazon"; why: string };

/** What the manifest's kind column asks of the reader. */
function expectationOf(row: Row): Expectation {
  const k = row.kind.toLowerCase();
  if (k.startsWith("negative")) return { type: "not-amazon", why: "carrier/retailer mail" };
  if (/\bforward|re-sent/.test(k)) return { type: "not-amazon", why: "forwarded by the user" };
  if (k.startsWith("order confirmation")) return { type: "order", kind: "ordered" };
  if (k.startsWith("shipped")) return { type: "order", kind: "shipped" };
  if (k.startsWith("out for delivery")) return { type: "order", kind: "out-for-delivery" };
  if (k.startsWith("delivered")) return { type: "order", kind: "delivered" };
  if (k.startsWith("delivery delayed")) return { type: "order", kind: "delayed" };
  if (k.startsWith("other") || k.startsWith("refund")) return { type: "other" };
  throw new Error(`MANIFEST kind not understood: ${row.kind} (${row.file})`);
}

/** Files whose manifest row the reader deliberately answers otherwise, and why. */
const KNOWN: Record<string, { expect: Expectation; reason: string }> = {
  "amazon_otp.eml": {
    expect: { type: "other" },
    reason:
      "one-time-password delivery notice: 'other' by design (never an order from an OTP mail); " +
      "it is also a Gmail forward sanitised to an amazon.com From",
  },
};

/** Rows whose manifest says the ordered item is linked, but whose HTML lists no ordered item. */
const NO_ITEM_IN_HTML: Record<string, string> = {
  "amazon-order-2020-09-15.html":
    "the order block is Amazon's 'costBreakdownNoAsin' (totals only); the only products are the 'Customers who bought this also bought' recommendations",
  "amazon-order-2020-09-28.html":
    "the order block is Amazon's 'costBreakdownNoAsin' (totals only); the only products are the 'Frequently bought together' recommendations",
  "amazon-order-2021-03-11-no-order-details.html":
    "manifest note: item details missing; the only products are recommendations",
};

const ORDER_NO = /\b[D\d]\d{2}-\d{7}-\d{7}\b/g;

type Result = {
  row: Row;
  expect: Expectation;
  facts: MailFacts;
  from: string;
  known?: string;
  problems: string[];
};

/** What the message says, decoded: where a number or ASIN the reader reports must occur. */
async function load(row: Row): Promise<{ msg: MailMessage; raw: string }> {
  const file = path.join(EMAILS, row.dir, row.file);
  const buf = fs.readFileSync(file);
  if (row.file.endsWith(".html")) {
    // Bodies saved without headers: wrapped as they would arrive, minus the headers.
    const html = buf.toString("utf8");
    return {
      raw: html,
      msg: {
        messageId: null,
        from: null,
        subject: "",
        date: null,
        html,
        text: null,
        headers: [],
      },
    };
  }
  const msg = await parseMail(buf);
  return { msg, raw: [msg.subject, msg.html ?? "", msg.text ?? ""].join("\n") };
}

function check(row: Row, msg: MailMessage, raw: string): Result {
  const known = KNOWN[row.file];
  const expectation = known?.expect ?? expectationOf(row);
  const facts = readAmazonMail(msg);
  const from = msg.from?.address ?? "(none)";
  const problems: string[] = [];
  const isHtmlOnly = row.file.endsWith(".html");

  if (expectation.type === "not-amazon") {
    // The pipeline's sender rule runs first: nothing from this message reaches the orders.
    if (isAmazonSender(msg.from?.address)) problems.push(`From ${from} passes isAmazonSender`);
    const carrierLike = expectation.why.startsWith("carrier");
    if (carrierLike && facts.orders.length > 0) problems.push("reader found an order");
    return { row, expect: expectation, facts, from, known: known?.reason, problems };
  }

  if (!isHtmlOnly && !isAmazonSender(msg.from?.address)) {
    problems.push(`From ${from} is not an Amazon sender`);
  }

  if (expectation.type === "other") {
    if (facts.kind !== "other") problems.push(`kind ${facts.kind}, expected other`);
    if (facts.orders.length > 0) problems.push("an order was produced");
    return { row, expect: expectation, facts, from, known: known?.reason, problems };
  }

  if (facts.kind !== expectation.kind) {
    problems.push(`kind ${facts.kind}, expected ${expectation.kind}`);
  }
  const market = row.marketplace.slice(0, 2);
  if (facts.marketplace !== market)
    problems.push(`marketplace ${facts.marketplace}, not ${market}`);

  if (row.order_number.startsWith("Y")) {
    const named = [...new Set(row.order_number.match(ORDER_NO) ?? [])];
    const multiple = /multiple|2 orders/i.test(`${row.file} ${row.notes}`);
    const got = facts.orders.map((o) => o.amazonordernumber);
    if (multiple) {
      if (got.length < 2) problems.push(`expected several orders, got ${got.length}`);
    } else if (got.length !== 1) {
      problems.push(`expected one order, got ${got.length}`);
    }
    for (const n of got) {
      // Where the manifest names numbers (a subject/body mismatch from redaction lists both),
      // the reader's must be one of them; otherwise it must be printed in the message itself.
      if (named.length > 0 && !named.includes(n)) {
        problems.push(`order ${n} is none of the manifest's ${named.join(", ")}`);
      }
      if (!raw.includes(n)) problems.push(`order ${n} does not occur in the message`);
    }
  }

  const items = facts.orders.flatMap((o) => o.items);
  const withAsin = items.filter((i) => i.asin);
  const asinCol = row.asin_or_product_link;
  if (/recommendations only/i.test(asinCol) && withAsin.length > 0) {
    problems.push(`recommended products became items: ${withAsin.map((i) => i.asin).join(", ")}`);
  } else if (/^Y\b/.test(asinCol) && withAsin.length === 0 && !NO_ITEM_IN_HTML[row.file]) {
    problems.push("no item with an ASIN although the ordered item is linked");
  }
  for (const i of withAsin) {
    if (i.asin && !raw.includes(i.asin)) problems.push(`item ASIN ${i.asin} not in the message`);
  }
  return {
    row,
    expect: expectation,
    facts,
    from,
    known: known?.reason ?? NO_ITEM_IN_HTML[row.file],
    problems,
  };
}

function printTable(results: Result[]): void {
  const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
  const lines = [
    `${pad("file", 50)} ${pad("expected", 17)} ${pad("read", 17)} ${pad("orders", 44)} ${pad("items", 6)} ${pad("total", 8)} result`,
  ];
  for (const r of results) {
    const expected =
      r.expect.type === "order"
        ? r.expect.kind
        : r.expect.type === "other"
          ? "other"
          : "not Amazon";
    const orders = r.facts.orders.map((o) => o.amazonordernumber).join(" ");
    const items = r.facts.orders.reduce((n, o) => n + o.items.length, 0);
    const total = r.facts.orders.map((o) => o.total ?? "-").join(" ");
    const verdict =
      r.problems.length > 0 ? `FAIL: ${r.problems.join("; ")}` : r.known ? "ok (known)" : "ok";
    const read =
      r.expect.type === "not-amazon" ? `refused (${r.from.split("@")[1] ?? r.from})` : r.facts.kind;
    lines.push(
      `${pad(`${r.row.dir}/${r.row.file}`, 50)} ${pad(expected, 17)} ${pad(read, 17)} ${pad(orders || "-", 44)} ${pad(String(items), 6)} ${pad(total || "-", 8)} ${verdict}`,
    );
  }
  const ok = results.filter((r) => r.problems.length === 0).length;
  lines.push(`${ok}/${results.length} files as expected`);
  const known = results.filter((r) => r.known);
  if (known.length > 0) {
    lines.push("known exceptions:");
    for (const r of known) lines.push(`  ${r.row.file}: ${r.known}`);
  }
  console.log(lines.join("\n"));
}

function requireCorpus(): void {
  if (!fs.existsSync(MANIFEST)) {
    throw new Error(
      `The mail corpus is expected at ${EMAILS} (../shared/corpus/emails beside the project ` +
        "root, with MANIFEST.csv); CI always has it. Check out the shared corpus there.",
    );
  }
}

describe.skipIf(!corpusAvailable(MANIFEST, "test/mail-corpus.test.ts"))(
  "Amazon mail corpus (../shared/corpus/emails)",
  () => {
    test("the corpus is present", () => {
      requireCorpus();
    });

    test("every file meets its manifest row", async () => {
      requireCorpus();
      const [header, ...data] = parseCsv(fs.readFileSync(MANIFEST, "utf8"));
      expect(header).toBeDefined();
      const cols = header as string[];
      const rows = data.map(
        (cells) => Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? ""])) as Row,
      );

      // Every mail file in the corpus has a manifest row, and every row has its file.
      const onDisk = fs
        .readdirSync(EMAILS, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .flatMap((d) =>
          fs
            .readdirSync(path.join(EMAILS, d.name))
            .filter((f) => f.endsWith(".eml") || f.endsWith(".html"))
            .map((f) => `${d.name}/${f}`),
        )
        .sort();
      expect(rows.map((r) => `${r.dir}/${r.file}`).sort()).toEqual(onDisk);

      const results: Result[] = [];
      for (const row of rows) {
        const { msg, raw } = await load(row);
        results.push(check(row, msg, raw));
      }
      printTable(results);

      const failures = results.filter((r) => r.problems.length > 0);
      expect(failures.map((r) => `${r.row.file}: ${r.problems.join("; ")}`)).toEqual([]);
      // The corpus must keep testing something: both positives and negatives are there.
      expect(results.filter((r) => r.expect.type === "order").length).toBeGreaterThanOrEqual(20);
      expect(results.filter((r) => r.expect.type !== "order").length).toBeGreaterThanOrEqual(20);
      // ~50 messages parsed and read: about a second alone, several on a busy 2-CPU machine.
    }, 60_000);
  },
);
