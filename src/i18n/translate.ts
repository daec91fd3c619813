/**
 * The server's words in a user's language: notifications, review reminders, alert messages and
 * the English sentence of each API error code, from the same catalogs as the web app
 * (`locales/<language>.json`, docs/i18n.md). A language's catalog is read and compiled the first
 * time a message in it is needed; a message missing from it falls back to English.
 */
import { type I18n, setupI18n } from "@lingui/core";
import { type Catalog, compileCatalog } from "./catalog.ts";
import { DEFAULT_LANGUAGE, INTL_LOCALES, isLanguage, type Language } from "./languages.ts";

/**
 * The catalog of a required JSON file. Bun hands `require` the module namespace (the object under
 * `default`) when the same file was imported as a module first (test/setup.ts does).
 */
const catalogOf = (m: Catalog | { default: Catalog }): Catalog =>
  typeof (m as { default?: unknown }).default === "object"
    ? (m as { default: Catalog }).default
    : (m as Catalog);

// Static requires, so the server bundle (scripts/build-server.ts) carries every catalog.
const CATALOGS: Record<Language, () => Catalog> = {
  en: () => catalogOf(require("../../locales/en.json")),
  de: () => catalogOf(require("../../locales/de.json")),
  fr: () => catalogOf(require("../../locales/fr.json")),
  es: () => catalogOf(require("../../locales/es.json")),
  it: () => catalogOf(require("../../locales/it.json")),
  ja: () => catalogOf(require("../../locales/ja.json")),
};

export type MessageValues = Record<string, string | number | Date | null | undefined>;
export type Translate = (id: string, values?: MessageValues) => string;

const loaded = new Map<Language, I18n>();

function i18nFor(language: Language): I18n {
  let i18n = loaded.get(language);
  if (!i18n) {
    const messages = compileCatalog(CATALOGS[language]());
    i18n = setupI18n();
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
