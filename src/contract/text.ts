/**
 * A sentence the server sends for people in a successful answer (a tracking summary or warning, a
 * mailbox's last error), as a catalog id and its values (docs/i18n.md "Server texts"): the answer
 * keeps its English words for API clients, the web app shows the id's sentence in the reader's
 * language. A value that is a list of texts is a list of clauses: each is said in the language and
 * they are joined with "; ".
 */
export type TextValue = string | number | TextPart[];
export type TextPart = { code: string; values?: Record<string, TextValue> };
