/**
 * The app's messages as a reader of each language sees them, read from the catalogs the app is
 * built from (locales/<language>.json), so a spec checks the screens against the translations
 * rather than against words copied into the test.
 */
import fs from "node:fs";
import path from "node:path";
import { type I18n, setupI18n } from "@lingui/core";
import { compileCatalog } from "../../src/i18n/catalog.ts";
import { INTL_LOCALES, type Language } from "../../src/i18n/languages.ts";

const root = path.resolve(import.meta.dirname, "../..");
const loaded = new Map<Language, I18n>();

export function catalog(language: Language): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(root, "locales", `${language}.json`), "utf8"));
}

/** The message `id` in `language` with its values, as the app formats it. */
export function msg(language: Language, id: string, values?: Record<string, unknown>): string {
  let i18n = loaded.get(language);
  if (!i18n) {
    i18n = setupI18n();
    i18n.loadAndActivate({
      locale: language,
      locales: [INTL_LOCALES[language]],
      messages: compileCatalog(catalog(language)),
    });
    loaded.set(language, i18n);
  }
  if (!(id in catalog(language))) throw new Error(`no message ${id} in locales/${language}.json`);
  return i18n._(id, values);
}
