/**
 * The web app's words in the reader's language (docs/i18n.md). Lingui formats the messages of
 * `locales/<language>.json`, compiled by the build (scripts/build-web.ts) and loaded per language
 * on demand: a German reader downloads the German catalog only. The language is the account's
 * (`language` in /api/user/data), else the one picked on the sign-in page, else the browser's.
 *
 *   const t = useT();                       // in a component: re-renders when the language changes
 *   t("orders.count", { count: 3 })         // "3 orders", "3 Bestellungen", "3件の注文"
 *   translate("orders.count", { count: 3 }) // outside React (toasts, helpers)
 */
import { i18n } from "@lingui/core";
import { useLingui } from "@lingui/react";
import type english from "../../locales/en.json";
import {
  DEFAULT_LANGUAGE,
  INTL_LOCALES,
  isLanguage,
  type Language,
  languageFromBrowser,
} from "../../src/i18n/languages.ts";
import { linkManifest } from "../../src/i18n/manifest.ts";

/** Every message id: the keys of the English catalog, so a typo is a type error. */
export type MessageId = keyof typeof english;
export type MessageValues = Record<string, unknown>;
export type T = (id: MessageId, values?: MessageValues) => string;

type CatalogModule = { default: Record<string, unknown> };
const CATALOGS: Record<Language, () => Promise<CatalogModule>> = {
  en: () => import("../../locales/en.json") as Promise<CatalogModule>,
  de: () => import("../../locales/de.json") as Promise<CatalogModule>,
  fr: () => import("../../locales/fr.json") as Promise<CatalogModule>,
  es: () => import("../../locales/es.json") as Promise<CatalogModule>,
  it: () => import("../../locales/it.json") as Promise<CatalogModule>,
  ja: () => import("../../locales/ja.json") as Promise<CatalogModule>,
};

/** Where the language picked on this browser is kept (also read by web/preload.ts). */
export const LANGUAGE_STORAGE_KEY = "language";

function stored(): Language | null {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

function remember(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage unavailable (private mode): the browser's language is used next time
  }
}

/** The language to start in: the one last used on this browser, else the browser's own. */
export function initialLanguage(): Language {
  return stored() ?? languageFromBrowser(globalThis.navigator?.languages);
}

/** The language the app shows now. */
export function currentLanguage(): Language {
  return isLanguage(i18n.locale) ? i18n.locale : DEFAULT_LANGUAGE;
}

/** The locale `Intl` formats dates, numbers and money in for the current language. */
export function intlLocale(): string {
  return INTL_LOCALES[currentLanguage()];
}

const loading = new Map<Language, Promise<void>>();

/**
 * Loads the language's catalog (once) and shows the app in it; remembered on this browser so the
 * next visit starts in it. `<html lang>` follows.
 */
export async function setLanguage(language: Language): Promise<void> {
  let load = loading.get(language);
  if (!load) {
    load = CATALOGS[language]().then((m) => i18n.load(language, m.default as never));
    loading.set(language, load);
    load.catch(() => loading.delete(language));
  }
  await load;
  i18n.activate(language, [INTL_LOCALES[language]]);
  remember(language);
  if (typeof document !== "undefined") {
    document.documentElement.lang = language;
    linkManifest(language);
  }
}

/** A message outside React (toasts, formatters, helpers). */
export const translate: T = (id, values) => i18n._(id, values);

/** A message in a component; the component re-renders when the language changes. */
export function useT(): T {
  return useLingui()._ as T;
}

export { i18n };
