import { describe, expect, test } from "bun:test";
import { languageFromBrowser } from "./languages.ts";

describe("languageFromBrowser", () => {
  test("the first preferred language Grapevine speaks, by its primary subtag", () => {
    expect(languageFromBrowser(["de-AT", "en-US"])).toBe("de");
    expect(languageFromBrowser(["pt-BR", "fr-CA", "de"])).toBe("fr");
    expect(languageFromBrowser(["ja"])).toBe("ja");
    expect(languageFromBrowser(["ES_es"])).toBe("es");
  });
  test("English when the browser prefers none of them, or says nothing", () => {
    expect(languageFromBrowser(["pt-BR", "nl"])).toBe("en");
    expect(languageFromBrowser([])).toBe("en");
    expect(languageFromBrowser(undefined)).toBe("en");
  });
});
