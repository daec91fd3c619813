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
} from "../../src/i18n/languages.ts";
import { linkManifest } from "../../src/i18n/manifest.ts";
import { rememberLanguage } from "./initial-language.ts";

/** Every message id: the keys of the English catalog, so a typo is a type error. */
export type MessageId = keyof typeof english;
export type MessageValues = Record<string, unknown>;
export type T = (id: MessageId, values?: MessageValues) => string;

type CatalogModule = { default: Record<string, unknown> };
type Part = "first" | "later";
// Each language's catalog in two chunks (src/i18n/catalog.ts, scripts/build-web.ts).
const CATALOGS: Record<Language, Record<Part, () => Promise<CatalogModule>>> = {
  en: { first: () => import("catalog:en:first"), later: () => import("catalog:en:later") },
  de: { first: () => import("catalog:de:first"), later: () => import("catalog:de:later") },
  fr: { first: () => import("catalog:fr:first"), later: () => import("catalog:fr:later") },
  es: { first: () => import("catalog:es:first"), later: () => import("catalog:es:later") },
  it: { first: () => import("catalog:it:first"), later: () => import("catalog:it:later") },
  ja: { first: () => import("catalog:ja:first"), later: () => import("catalog:ja:later") },
};

/** The language the app shows now. */
export function currentLanguage(): Language {
  return isLanguage(i18n.locale) ? i18n.locale : DEFAULT_LANGUAGE;
}

/** The locale `Intl` formats dates, numbers and money in for the current language. */
export function intlLocale(): string {
  return INTL_LOCALES[currentLanguage()];
}

const loading = new Map<string, Promise<void>>();

function loadPart(language: Language, part: Part): Promise<void> {
  const key = `${language}:${part}`;
  let load = loading.get(key);
  if (!load) {
    load = CATALOGS[language][part]().then((m) => i18n.load(language, m.default as never));
    loading.set(key, load);
    load.catch(() => loading.delete(key));
  }
  return load;
}

/**
 * Loads the language's catalog (once) and shows the app in it. Remembered on this browser so the
 * next visit starts in it; `<html lang>` follows. At start only the first part is awaited
 * (`firstOnly`): web/main.tsx asks for the rest once the first screen is drawn.
 */
export async function setLanguage(
  language: Language,
  { firstOnly = false }: { firstOnly?: boolean } = {},
): Promise<void> {
  await Promise.all([loadPart(language, "first"), firstOnly ? null : loadPart(language, "later")]);
  i18n.activate(language, [INTL_LOCALES[language]]);
  rememberLanguage(language);
  if (typeof document !== "undefined") {
    document.documentElement.lang = language;
    linkManifest(language);
  }
}

/**
 * The whole catalog of the current language: the pages beyond the first screens wait for it
 * before they show (web/pages.ts). A failed download is asked for again; the page shows anyway.
 */
export function catalogLoaded(): Promise<void> {
  return loadPart(currentLanguage(), "later").catch(() => {});
}

/** True when the current language's catalog has the id (an API error code's sentence). */
export function hasMessage(id: string): boolean {
  return Object.hasOwn(i18n.messages, id);
}

/** A message outside React (toasts, formatters, helpers). */
export const translate: T = (id, values) => i18n._(id, values);

/** A message in a component; the component re-renders when the language changes. */
export function useT(): T {
  return useLingui()._ as T;
}

export { i18n };
