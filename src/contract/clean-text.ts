/** Invisible characters stripped from every text the server keeps. No zod: see fields.ts. */

/**
 * Characters no text field keeps: NUL and the other C0 controls except tab, line feed and carriage
 * return, DEL, the C1 controls, the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) and lone UTF-16 surrogates. They are invisible, so a person
 * could not find them to remove them; they are stripped rather than refused. Applied by readBody
 * (src/http/validate.ts) to every string of every JSON request body.
 */
const UNWANTED_CHARS = new RegExp(
  [
    "[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]",
    "[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])",
    "(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]",
  ].join("|"),
  "g",
);

/** The text without the characters above (the same string when it has none). */
export function cleanText(s: string): string {
  UNWANTED_CHARS.lastIndex = 0;
  return UNWANTED_CHARS.test(s) ? s.replace(UNWANTED_CHARS, "") : s;
}

/**
 * A parsed JSON value with cleanText applied to every string value in it, changed in place.
 * Iterative (an explicit stack), so no nesting depth can overflow the call stack.
 */
export function cleanStrings(value: unknown): unknown {
  if (typeof value === "string") return cleanText(value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const obj = node as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      const v = obj[k];
      if (typeof v === "string") {
        const c = cleanText(v);
        if (c !== v) obj[k] = c;
      } else if (v !== null && typeof v === "object") stack.push(v);
    }
  }
  return value;
}
