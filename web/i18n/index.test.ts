/** Switching the app's language loads that language's catalog and formats in its locale. */
import { afterEach, describe, expect, test } from "bun:test";
import { formatMoney } from "../lib/format.ts";
import { currentLanguage, hasMessage, intlLocale, setLanguage, translate } from "./index.ts";

afterEach(async () => {
  await setLanguage("en");
});

describe("setLanguage", () => {
  test("a German reader gets German words and German money", async () => {
    await setLanguage("de");
    expect(currentLanguage()).toBe("de");
    expect(intlLocale()).toBe("de-DE");
    expect(translate("common.save")).toBe("Speichern");
    expect(formatMoney(24.99, "EUR")).toBe("24,99\u00a0€");
  });

  test("a Japanese reader gets Japanese words and yen as Japan writes them", async () => {
    await setLanguage("ja");
    expect(translate("common.cancel")).toBe("キャンセル");
    expect(formatMoney(4990, "JPY")).toBe("￥4,990");
  });

  test("back in English, English again", async () => {
    await setLanguage("fr");
    await setLanguage("en");
    expect(translate("common.save")).toBe("Save");
    expect(formatMoney(24.99, "EUR")).toBe("€24.99");
  });

  test("a message id the catalog does not have is known to be missing", async () => {
    expect(hasMessage("common.save")).toBe(true);
    expect(hasMessage("error.no_such_code")).toBe(false);
  });
});
