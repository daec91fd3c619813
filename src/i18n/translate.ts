/**
 * The server's words in a user's language: notifications, review reminders, alert messages and
 * the English sentence of each API error code, from the same catalogs as the web app
 * (`locales/<language>.json`, docs/i18n.md). A language's catalog is read and compiled the first
 * time a message in it is needed; a message missing from it falls back to English. Lingui itself
 * (@lingui/core, @lingui/message-utils) is loaded then too, not at start (test/lazy-modules.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { I18n } from "@lingui/core";
import deFile from "../../locales/de.json" with { type: "file" };
import enFile from "../../locales/en.json" with { type: "file" };
import esFile from "../../locales/es.json" with { type: "file" };
import frFile from "../../locales/fr.json" with { type: "file" };
import itFile from "../../locales/it.json" with { type: "file" };
import jaFile from "../../locales/ja.json" with { type: "file" };
import { lazyModule } from "../util/lazy-module.ts";
import type { Catalog } from "./catalog.ts";
import { DEFAULT_LANGUAGE, INTL_LOCALES, isLanguage, type Language } from "./languages.ts";

// Lingui and its message compiler load with the first message translated, not at start
// (test/lazy-modules.test.ts): a server that never sends a notification or an error pays nothing.
const lingui = lazyModule(() => require("@lingui/core") as typeof import("@lingui/core"));
const catalogs = lazyModule(() => require("./catalog.ts") as typeof import("./catalog.ts"));

// Each catalog is a file read with the first message in its language: the server bundle
// (scripts/build-server.ts) copies the six beside it. Bundled as code they were 0.8 MB of source
// that every start parsed and kept (about 1.4 MB resident, bench/startup.bench.ts).
const CATALOG_FILES = {
  en: enFile,
  de: deFile,
  fr: frFile,
  es: esFile,
  it: itFile,
  ja: jaFile,
} as unknown as Record<Language, string>;

/** The catalog of a language as its file holds it (relative to this module once bundled). */
function readCatalog(language: Language): Catalog {
  return JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dir, CATALOG_FILES[language]), "utf8"),
  );
}

export type MessageValues = Record<string, string | number | Date | null | undefined>;
export type Translate = (id: string, values?: MessageValues) => string;

const loaded = new Map<Language, I18n>();

/** The ids made outside the browser: the server's own, the API errors', the texts of successful answers (tracking, mailbox, alerts, an itemized report's rows) and (by the web build) the installed app's manifest. */
const onServer = (id: string) =>
  /^(server|error|pwa|tracking\.server|mailbox\.server|alerts\.server|vine\.server)\./.test(id);

function i18nFor(language: Language): I18n {
  let i18n = loaded.get(language);
  if (!i18n) {
    const { compileCatalog } = catalogs();
    // Only those ids: the web app's stay uncompiled.
    const messages = compileCatalog(readCatalog(language), onServer);
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
