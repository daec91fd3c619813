/** Dutch: the reader's words in this language (the tables are described in ../phrases.ts). */
import type { LanguagePhrases } from "./language.ts";

export const nl: LanguagePhrases = {
  prefix: { ordered: ["besteld"], shipped: ["verzonden"], delivered: ["bezorgd"] },
};
