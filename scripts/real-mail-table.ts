/**
 * Prints the README's "Mail read on real samples" table: per marketplace, the real samples and
 * the share of each field the reader reads right (test/support/real-mail-score.ts), then every
 * check it gets wrong. `bun run scripts/real-mail-table.ts` (the corpus at ../shared/corpus).
 */
import {
  byMarketplace,
  failures,
  markdownTable,
  scoreAll,
} from "../test/support/real-mail-score.ts";

const { results, missing } = await scoreAll();
console.log(markdownTable(byMarketplace(results)));
if (missing.length > 0) console.log(`\nNot found (corpus missing?): ${missing.length} samples`);
if (process.argv.includes("--failures")) console.log(`\n${failures(results).join("\n")}`);
