import { expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { ALERT_EVENT_LABELS, ALERT_EVENTS } from "../contract/alert-events.ts";
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

test("every server.* id the server's code names is in the English catalog", () => {
  // Read as text: translate.ts imports the catalogs as files, so `require` would give a path.
  const english = JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dir, "../../locales/en.json"), "utf8"),
  ) as Record<string, string>;
  const root = path.resolve(import.meta.dir, "..");
  const used = new Set<string>();
  for (const file of new Bun.Glob("**/*.ts").scanSync(root)) {
    if (file.endsWith(".test.ts")) continue;
    const source = fs.readFileSync(path.join(root, file), "utf8");
    for (const m of source.matchAll(/["`](server\.[A-Za-z0-9_.]+)["`]/g)) used.add(m[1] as string);
  }
  expect(used.size).toBeGreaterThan(20);
  expect([...used].filter((id) => !(id in english))).toEqual([]);
});

test("alert titles in English are the event labels API clients know", () => {
  for (const event of ALERT_EVENTS) {
    expect(translate("en", `server.alertEvent.${event}`)).toBe(ALERT_EVENT_LABELS[event]);
  }
});
