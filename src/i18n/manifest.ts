/**
 * The installed app's manifest per language (docs/i18n.md): the build writes one from
 * web/pwa/manifest.webmanifest for each language, its description from the `pwa.description`
 * message (the name stays "Grapevine"), and the page links the reader's. English keeps the
 * address it always had. Browser-safe (web/preload.ts and web/i18n/index.ts import it).
 */
import { LANGUAGES, type Language } from "./languages.ts";

export function manifestPath(language: Language): string {
  return language === "en" ? "/pwa/manifest.webmanifest" : `/pwa/manifest.${language}.webmanifest`;
}

/** Every language's manifest address (the server checks them on every load, like the English). */
export const MANIFEST_PATHS: readonly string[] = LANGUAGES.map(manifestPath);

/** Points the page's `<link rel="manifest">` at the language's manifest (none in a dev page). */
export function linkManifest(language: Language): void {
  document.querySelector('link[rel="manifest"]')?.setAttribute("href", manifestPath(language));
}
