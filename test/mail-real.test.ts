/**
 * Measures the Amazon mail reader on real layouts ("Done when"): every real sample —
 * the fixtures in test/fixtures/mail/real/ written in the layout of public real Amazon mail (each
 * names its source in X-Fixture-Source) and the real mail of ../shared/corpus/emails — is read
 * through parseMail and readAmazonMail, and compared with test/fixtures/mail/real/expected.json
 * (see test/support/real-mail-score.ts for what counts).
 *
 * Per marketplace it prints the table and asserts 100% for kind and order number and at least
 * 95% for items, item prices, totals and delivery dates, where the mail shows them. It fails
 * until the reader reads every real layout; the failed checks are printed,
 * one line each. The phrase-table fixtures of test/fixtures/mail/locales.ts are not counted here:
 * they test code, not the world.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import { CORPUS_DIR, corpusAvailable } from "./support/corpus.ts";
import {
  byMarketplace,
  FIELDS,
  failures,
  type MarketplaceScore,
  markdownTable,
  type SampleResult,
  scoreAll,
} from "./support/real-mail-score.ts";

const MIN_SHARE: Record<(typeof FIELDS)[number], number> = {
  kind: 1,
  order: 1,
  items: 0.95,
  prices: 0.95,
  totals: 0.95,
  delivery: 0.95,
};

describe("the mail reader on real layouts, per marketplace", async () => {
  corpusAvailable(`${CORPUS_DIR}/emails/MANIFEST.csv`, "mail-real (corpus samples)");
  const { results, missing } = await scoreAll();
  const scores = byMarketplace(results);
  console.log(`\n${markdownTable(scores)}\n`);
  if (missing.length > 0 && fs.existsSync(CORPUS_DIR)) {
    throw new Error(`samples listed in expected.json but missing: ${missing.join(", ")}`);
  }
  const lines = failures(results);
  if (lines.length > 0) console.log(`Read wrong (${lines.length}):\n${lines.join("\n")}\n`);

  for (const s of scores.filter((x: MarketplaceScore) => x.samples > 0)) {
    test(`${s.marketplace}: ${s.samples} real samples read right`, () => {
      const short: string[] = [];
      for (const f of FIELDS) {
        if (s[f].counted === 0 || s[f].right / s[f].counted >= MIN_SHARE[f]) continue;
        const wrong = results
          .filter((r: SampleResult) => r.marketplace === s.marketplace)
          .filter((r) => r.checks[f].counted && !r.checks[f].right)
          .map((r) => r.key);
        short.push(`${f} ${s[f].right}/${s[f].counted} (wrong: ${wrong.join(", ")})`);
      }
      expect(short).toEqual([]);
    });
  }
});
