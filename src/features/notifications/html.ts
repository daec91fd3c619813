/**
 * HTML for notification messages. Every value interpolated into the `html` template is escaped,
 * except another `html` result, so fragments compose without double escaping:
 *
 *   html`Review due: <strong>${order.productname}</strong>. <a href="${link}">Open</a>`
 *
 * The result is a SafeHtml object, not a string: `notify()` accepts only SafeHtml, so a message
 * cannot be built by string concatenation by mistake. The browser sanitises again before rendering.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes the five characters that matter in HTML text and in quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/** HTML that is safe to store and render as it is: made only by the `html` template. */
export class SafeHtml {
  readonly #value: string;
  /** @internal use the `html` template */
  constructor(value: string) {
    this.#value = value;
  }
  toString(): string {
    return this.#value;
  }
  toJSON(): string {
    return this.#value;
  }
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.toString();
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(value);
}

/** Tagged template: literal parts are kept, every interpolated value is escaped (see above). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "");
  return new SafeHtml(out);
}

const UNESCAPES: Record<string, string> = Object.fromEntries(
  Object.entries(ESCAPES).map(([ch, entity]) => [entity, ch]),
);

/**
 * The message as plain text for alerts (ntfy, webhooks, push): links are left out (the alert
 * carries its own), tags dropped, the five escapes undone. Values were escaped by `html`, so no
 * `<` in the text is a value's.
 */
export function toPlainText(message: SafeHtml): string {
  return message
    .toString()
    .replace(/<a\b[^>]*>.*?<\/a>/gs, "")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => UNESCAPES[e] ?? e)
    .replace(/\s+/g, " ")
    .replace(/\s+([.,])/g, "$1")
    .trim();
}
