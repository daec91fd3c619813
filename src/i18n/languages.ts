/**
 * The languages Grapevine speaks: those of the Amazon Vine marketplaces. Browser-safe (the web app
 * and web/preload.ts import it); the catalogs are `locales/<language>.json` (docs/i18n.md).
 */

export const LANGUAGES = ["en", "de", "fr", "es", "it", "ja"] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Each language by its own name, as the pickers list it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  it: "Italiano",
  ja: "日本語",
};

/**
 * The locale `Intl` formats in for a language: dates, numbers and money as a reader of that
 * language expects them (`24,99 €` and `24. Dez.` in German, `￥4,990` and `12月24日` in Japanese).
 */
export const INTL_LOCALES: Record<Language, string> = {
  en: "en-US",
  de: "de-DE",
  fr: "fr-FR",
  es: "es-ES",
  it: "it-IT",
  ja: "ja-JP",
};

/**
 * The first of the browser's languages (`navigator.languages`, most preferred first) that
 * Grapevine speaks, by its primary subtag ("de-AT" is German); English when none is.
 */
export function languageFromBrowser(preferred: readonly string[] | undefined): Language {
  for (const tag of preferred ?? []) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}
