import { expect, test } from "bun:test";
import { languageOrDefault, translate, translator } from "./translate.ts";

test("a stored language, English for none or anything else", () => {
  expect(languageOrDefault("de")).toBe("de");
  expect(languageOrDefault("ja")).toBe("ja");
  expect(languageOrDefault(null)).toBe("en");
  expect(languageOrDefault("xx")).toBe("en");
  expect(languageOrDefault(3)).toBe("en");
});

test("ICU plurals in each language's forms and number format", () => {
  const days = (language: "en" | "de" | "ja", n: number) =>
    translate(language, "server.reminder.reviewDue", { product: "P", days: n });
  expect(days("en", 1)).toBe(
    "Review due: <b>P</b> was delivered 1 day ago. <a>Write the review</a>",
  );
  expect(days("en", 14)).toContain("was delivered 14 days ago");
  expect(days("de", 1)).toContain("wurde vor 1 Tag zugestellt");
  expect(days("de", 2000)).toContain("wurde vor 2.000 Tagen zugestellt");
  expect(days("ja", 30)).toContain("30日前に配達されました");
  expect(translator("fr")("server.alerts.order")).toBe("Commande");
});

test("an id no catalog has comes back as the id", () => {
  expect(translate("de", "server.no.such.id")).toBe("server.no.such.id");
});
