/**
 * The server's words in a user's language: notifications, review reminders, alert messages and
 * the English sentence of each API error code, from the same catalogs as the web app
 * (`locales/<language>.json`, docs/i18n.md). A language's catalog is read and compiled the first
 * time a message in it is needed; a message missing from it falls back to English. Lingui itself
 * (@lingui/core, @lingui/message-utils) is loaded then too, not at start (test/lazy-modules.test.ts).
 */
import type { I18n } from "@lingui/core";
import { lazyModule } from "../util/lazy-module.ts";
import { DEFAULT_LANGUAGE, INTL_LOCALES, isLanguage, type Language } from "./languages.ts";

// Lingui and its message compiler load with the first message translated, not at start
// (test/lazy-modules.test.ts): a server that never sends a notification or an error pays nothing.
const lingui = lazyModule(() => require("@lingui/core") as typeof import("@lingui/core"));
const catalogs = lazyModule(() => require("./catalog.ts") as typeof import("./catalog.ts"));

// Static requires, so the server bundle (scripts/build-server.ts) carries every catalog; a JSON
// file also imported as a module comes back as that module (`catalogOf` takes its object).
const CATALOGS: Record<Language, () => unknown> = {
  en: () => require("../../locales/en.json"),
  de: () => require("../../locales/de.json"),
  fr: () => require("../../locales/fr.json"),
  es: () => require("../../locales/es.json"),
  it: () => require("../../locales/it.json"),
  ja: () => require("../../locales/ja.json"),
};

export type MessageValues = Record<string, string | number | Date | null | undefined>;
export type Translate = (id: string, values?: MessageValues) => string;

const loaded = new Map<Language, I18n>();

/** The ids made outside the browser: the server's own, the API errors', the texts of successful answers (tracking, mailbox, alerts, an itemized report's rows) and (by the web build) the installed app's manifest. */
const onServer = (id: string) =>
  /^(server|error|pwa|tracking\.server|mailbox\.server|alerts\.server|vine\.server)\./.test(id);

function i18nFor(language: Language): I18n {
  let i18n = loaded.get(language);
  if (!i18n) {
    const { catalogOf, compileCatalog } = catalogs();
    // Only those ids: the web app's stay uncompiled.
    const messages = compileCatalog(catalogOf(CATALOGS[language]()), onServer);
    i18n = lingui().setupI18n();
    i18n.loadAndActivate({ locale: INTL_LOCALES[language], messages });
    loaded.set(language, i18n);
  }
  return i18n;
}

/** The language a stored value names, English for anything else (an old row, a null). */
export function languageOrDefault(value: unknown): Language {
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

/** The message `id` in `language` with its values; English when that catalog lacks it. */
export function translate(language: Language, id: string, values?: MessageValues): string {
  const i18n = i18nFor(language);
  const text = i18n._(id, values as Record<string, unknown>);
  if (text !== id || language === DEFAULT_LANGUAGE) return text;
  return i18nFor(DEFAULT_LANGUAGE)._(id, values as Record<string, unknown>);
}

/** A translate function bound to one language. */
export function translator(language: Language): Translate {
  return (id, values) => translate(language, id, values);
}
