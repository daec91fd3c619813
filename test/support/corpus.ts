/**
 * The shared real-mail corpus lives outside the repository (../shared/corpus beside the project
 * root). A fresh clone has none: its tests print one line saying so and what to do, and are
 * skipped. With CI set (CI always has the corpus), a missing corpus fails them instead.
 */
import fs from "node:fs";
import path from "node:path";

export const CORPUS_DIR = path.resolve(import.meta.dir, "..", "..", "..", "shared", "corpus");

/** True when `file` (under the corpus) exists; otherwise prints why its tests are skipped. */
export function corpusAvailable(file: string, tests: string): boolean {
  if (fs.existsSync(file)) return true;
  if (process.env.CI) return true; // CI has the corpus: let the tests fail and say what is missing
  console.log(
    `${tests}: skipped, the shared corpus is missing (${file}). To run them, place the shared corpus at ${CORPUS_DIR} (../shared/corpus beside the project root).`,
  );
  return false;
}
