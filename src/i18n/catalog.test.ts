/**
 * The catalogs a translator edits (`locales/<language>.json`) against the English one: a key
 * missing or empty in a language would show English or an id on that language's screens; a
 * key English no longer has is a leftover; a message that does not compile would fail at
 * render; a translation that drops or renames a value (`{count}`, `{name}`) would show the
 * wrong thing or nothing.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { type Catalog, compileCatalog } from "./catalog.ts";
import { LANGUAGES } from "./languages.ts";

// Read as text: `require` would hand back the module namespace (with `default`) of a catalog the
// test setup already imported.
const catalogs = Object.fromEntries(
  LANGUAGES.map((l) => [
    l,
    JSON.parse(fs.readFileSync(path.join(import.meta.dir, `../../locales/${l}.json`), "utf8")),
  ]),
) as Record<(typeof LANGUAGES)[number], Catalog>;
const english = catalogs.en;

/** The names of the values a compiled message uses (`{name}`, `{count, plural, …}`). */
function valueNames(tokens: unknown, into = new Set<string>()): Set<string> {
  // A compiled message is a list of tokens: text, or an argument [name, type?, branches?].
  for (const token of Array.isArray(tokens) ? tokens : [tokens]) {
    if (!Array.isArray(token)) continue;
    const [name, , branches] = token as [string, string?, Record<string, unknown>?];
    into.add(name);
    if (branches && typeof branches === "object") {
      for (const branch of Object.values(branches)) valueNames(branch, into);
    }
  }
  return into;
}

describe("message catalogs", () => {
  test("English has messages, each of which compiles", () => {
    expect(Object.keys(english).length).toBeGreaterThan(0);
    expect(() => compileCatalog(english)).not.toThrow();
  });

  test("each catalog keeps its ids in alphabetical order (easy to find, easy to merge)", () => {
    for (const language of LANGUAGES) {
      const ids = Object.keys(catalogs[language]);
      expect({ language, ids }).toEqual({ language, ids: [...ids].sort() });
    }
  });

  for (const language of LANGUAGES.filter((l) => l !== "en")) {
    describe(language, () => {
      const catalog = catalogs[language];
      test("has every English key, none empty", () => {
        const missing = Object.keys(english).filter((id) => !(id in catalog));
        const empty = Object.entries(catalog)
          .filter(([, text]) => typeof text !== "string" || text.trim() === "")
          .map(([id]) => id);
        expect({ missing, empty }).toEqual({ missing: [], empty: [] });
      });
      test("has no key English does not have", () => {
        expect(Object.keys(catalog).filter((id) => !(id in english))).toEqual([]);
      });
      test("every message compiles and uses the values English uses", () => {
        const wrong: string[] = [];
        for (const [id, text] of Object.entries(catalog)) {
          const source = english[id];
          if (source === undefined) continue;
          let names: Set<string>;
          try {
            names = valueNames(compileMessage(text));
          } catch (e) {
            wrong.push(`${id}: ${(e as Error).message}`);
            continue;
          }
          const expected = valueNames(compileMessage(source));
          if ([...expected].sort().join() !== [...names].sort().join()) {
            wrong.push(
              `${id}: uses {${[...names].join(", ")}}, English {${[...expected].join(", ")}}`,
            );
          }
        }
        expect(wrong).toEqual([]);
      });
    });
  }
});
