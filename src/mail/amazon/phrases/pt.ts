/** Portuguese: the reader's words in this language (the tables are described in ../phrases.ts). */
import type { LanguagePhrases } from "./language.ts";

export const pt: LanguagePhrases = { prefix: { ordered: ["pedido efetuado"] } };
