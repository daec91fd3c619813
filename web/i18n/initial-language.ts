/**
 * The language the app starts in: the one last used on this browser, else the browser's own.
 * Free of the catalogs and of Lingui, so the early script (web/preload.ts) decides exactly as the
 * app (web/i18n/index.ts) will, and fetches that language's catalog with the bundle.
 */
import { isLanguage, type Language, languageFromBrowser } from "../../src/i18n/languages.ts";

/** Where the language used on this browser is kept. */
const LANGUAGE_STORAGE_KEY = "language";

function stored(): Language | null {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** Kept on this browser, so the next visit starts in it. */
export function rememberLanguage(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage unavailable (private mode): the browser's language is used next time
  }
}

export function initialLanguage(): Language {
  return stored() ?? languageFromBrowser(globalThis.navigator?.languages);
}
