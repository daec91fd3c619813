/** The server's words in the receiving user's language, English where a catalog lacks one. */
import { describe, expect, test } from "bun:test";
import { languageOrDefault, translate } from "./translate.ts";

describe("translate", () => {
  test("a message in each language", () => {
    expect(translate("en", "common.save")).toBe("Save");
    expect(translate("de", "common.save")).toBe("Speichern");
    expect(translate("ja", "common.save")).toBe("保存");
  });
  test("an unknown id comes back as itself (never a crash)", () => {
    expect(translate("de", "no.such.id")).toBe("no.such.id");
  });
  test("a stored language that is not one of ours reads as English", () => {
    expect(languageOrDefault("de")).toBe("de");
    expect(languageOrDefault(null)).toBe("en");
    expect(languageOrDefault("pt")).toBe("en");
  });
});
