/**
 * Message catalogs: `locales/<language>.json`, one flat object of message id → ICU MessageFormat
 * text per language (docs/i18n.md). Ids starting with `server.` are the server's own (notifications,
 * review reminders, alert messages) and are left out of the web app's catalog; `error.<code>` ids are
 * the sentences of the API's error codes, which both sides use.
 *
 * Messages are compiled by Lingui's compiler (@lingui/message-utils) into the form `@lingui/core`
 * formats without a parser: at build time for the web app (scripts/build-web.ts), on first use on
 * the server (src/i18n/translate.ts).
 */
import { compileMessage } from "@lingui/message-utils/compileMessage";

export type Catalog = Record<string, string>;
export type CompiledCatalog = Record<string, ReturnType<typeof compileMessage>>;

export const SERVER_PREFIX = "server.";

export function isServerMessage(id: string): boolean {
  return id.startsWith(SERVER_PREFIX);
}

/**
 * The web app's catalog comes in two parts per language: what the first screens (sign-in, the
 * dashboard, the orders list, the header) show, fetched with the bundle, and the rest (the other
 * screens, the API's error sentences), fetched after the first screen is drawn and awaited by the
 * pages that need it (web/pages.ts). The ids of the rest start with these. The sentences the
 * server sends with an answer (`tracking.server.`, `mailbox.server.`) come after a click or a
 * live update; one that arrives before the rest shows the server's English words until it has.
 */
export const LATER_PREFIXES = [
  "account.",
  "add.",
  "admin.",
  "alerts.",
  "edit.",
  "email.",
  "enhance.",
  "error.",
  "form.",
  "mailbox.server.",
  "media.",
  "notifications.",
  "privacy.",
  "profile.",
  "review.",
  "reviewSettings.",
  "tracking.server.",
  "trackingSettings.",
  "vine.",
] as const;

export type CatalogPart = "first" | "later";

/**
 * Ids under a later prefix that a first screen shows: the dashboard's Vine card (web/components/
 * vine/VineCard.tsx and the lines of web/lib/vine.ts it uses). In the later part, the card showed
 * its message ids until the rest of the catalog arrived.
 */
export const FIRST_SCREEN_PREFIXES = ["vine.card.", "vine.percent", "vine.rate."] as const;

/** Which part of the web app's catalog an id is in (server messages are in neither). */
export function webCatalogPart(id: string): CatalogPart | null {
  if (isServerMessage(id)) return null;
  if (FIRST_SCREEN_PREFIXES.some((p) => id.startsWith(p))) return "first";
  return LATER_PREFIXES.some((p) => id.startsWith(p)) ? "later" : "first";
}

/** The catalog compiled; `keep` chooses which ids go in (the web app leaves the server's out). */
export function compileCatalog(
  catalog: Catalog,
  keep: (id: string) => boolean = () => true,
): CompiledCatalog {
  const out: CompiledCatalog = {};
  for (const [id, text] of Object.entries(catalog)) {
    if (keep(id)) out[id] = compileMessage(text);
  }
  return out;
}
