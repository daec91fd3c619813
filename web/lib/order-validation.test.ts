/**
 * The order form's messages in the reader's language: a German or Japanese reader gets the
 * client-side checks of Add and Edit Order (and the media and AI help refusals) in German or
 * Japanese, English readers the spec's words. The catalogs are loaded as the browser loads them.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { i18n } from "@lingui/core";
import german from "../../locales/de.json";
import japanese from "../../locales/ja.json";
import { checkFiles } from "../pages/edit-order/media/media-rules.ts";
import { enhanceErrorMessage } from "./enhance-errors.ts";
import { emptyOrderForm, formToPayload, type OrderForm } from "./order-form.ts";
import { validateOrderForm } from "./order-validation.ts";
import { reviewStatusLine } from "./review-status.ts";

function inLanguage(language: "de" | "ja") {
  i18n.load(language, language === "de" ? german : japanese);
  i18n.activate(language, [language === "de" ? "de-DE" : "ja-JP"]);
}

afterEach(() => i18n.activate("en", ["en-US"]));

const form = (values: Partial<OrderForm>): OrderForm => ({
  ...emptyOrderForm(),
  productname: "Kopfhörer",
  asin: "B0TEST1234",
  ...values,
});

describe("order form messages in the reader's language", () => {
  test("English: the spec's words", () => {
    expect(validateOrderForm(form({ productname: " ", asin: "" }))).toEqual({
      productname: "Product name is required",
      asin: "ASIN is required",
    });
  });

  test("German", () => {
    inLanguage("de");
    expect(
      validateOrderForm(
        form({
          productname: "",
          asin: "",
          producturl: "not a link",
          dateordered: "2026-11-20",
          datedelivered: "2026-11-18",
          reviewsubject: "x".repeat(501),
        }),
      ),
    ).toEqual({
      productname: "Produktname ist erforderlich",
      asin: "ASIN ist erforderlich",
      producturl: "Muss eine gültige URL sein",
      datedelivered: "Das Zustelldatum kann nicht vor dem Bestelldatum liegen",
      reviewsubject: "Der Titel darf höchstens 500 Zeichen lang sein",
    });
    expect(
      validateOrderForm(form({ estimatedretailvalue: "abc", currency: "EUR" }))
        .estimatedretailvalue,
    ).toBe("Der geschätzte Wert muss ein Betrag wie 24,99 sein");
    expect(
      validateOrderForm(form({ estimatedretailvalue: "4990,50", currency: "JPY" }))
        .estimatedretailvalue,
    ).toBe("Beträge in JPY haben keine Nachkommastellen: Schreibe eine ganze Zahl wie 4990");
  });

  test("a German reader's decimal comma is read in dollars too, as the German message suggests", () => {
    const dollars = form({ estimatedretailvalue: "24,99", currency: "USD" });
    expect(validateOrderForm(dollars).estimatedretailvalue).toBe(
      "Estimated value must be an amount such as 24.99",
    );
    inLanguage("de");
    expect(validateOrderForm(dollars).estimatedretailvalue).toBeUndefined();
    expect(formToPayload(dollars).estimatedretailvalue).toBe("24.99");
  });

  test("Japanese", () => {
    inLanguage("ja");
    expect(validateOrderForm(form({ productname: "", asin: "", rating: 0 }))).toEqual({
      productname: "商品名は必須です",
      asin: "ASINは必須です",
      rating: "評価は星1〜5つにしてください",
    });
  });

  test("a German reader's media refusals and AI help errors are German, a Japanese one's Japanese", () => {
    inLanguage("de");
    expect(checkFiles([], [], [{ name: "a.txt", type: "text/plain", size: 1 }]).error).toBe(
      "Nur Bild- und Videodateien sind erlaubt",
    );
    expect(enhanceErrorMessage(429, "", "17")).toBe(
      "Zu viele Anfragen. Bitte warten Sie 17 Sekunden und versuchen Sie es dann erneut.",
    );
    inLanguage("ja");
    expect(
      checkFiles([], [], [{ name: "big.jpg", type: "image/jpeg", size: 11 * 1024 * 1024 }]).error,
    ).toBe("ファイルサイズは10MB未満にしてください");
    expect(enhanceErrorMessage(408, "", null)).toBe(
      "改善に時間がかかりすぎています。もう一度お試しください。",
    );
  });

  test("the review's status line", () => {
    const shipped = {
      status: "Shipped" as const,
      datereviewsubmitted: null,
      datereviewapproved: null,
      datereviewrejected: null,
      datedelivered: null,
    };
    inLanguage("de");
    expect(reviewStatusLine(shipped).label).toBe("Nicht eingereicht");
    inLanguage("ja");
    expect(reviewStatusLine(shipped).label).toBe("未投稿");
  });
});
