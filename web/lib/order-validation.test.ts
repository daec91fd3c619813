/**
 * The order form's messages in the reader's language: a German or Japanese reader gets the
 * client-side checks of Add and Edit Order (and the media and AI help refusals) in German or
 * Japanese, English readers the spec's words. The catalogs are loaded as the browser loads them.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { anOrder } from "../../test/fixtures/order.ts";
import { setLanguage } from "../i18n/index.ts";
import { checkFiles } from "../pages/edit-order/media/media-rules.ts";
import { enhanceErrorMessage } from "./enhance-errors.ts";
import {
  changedFields,
  emptyOrderForm,
  formToPayload,
  type OrderForm,
  orderToForm,
} from "./order-form.ts";
import { validateOrderForm } from "./order-validation.ts";
import { reviewStatusLine } from "./review-status.ts";

afterEach(() => setLanguage("en"));

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

  test("German", async () => {
    await setLanguage("de");
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

  test("a German reader's decimal comma is read in dollars too, as the German message suggests", async () => {
    const dollars = form({ estimatedretailvalue: "24,99", currency: "USD" });
    expect(validateOrderForm(dollars).estimatedretailvalue).toBe(
      "Estimated value must be an amount such as 24.99",
    );
    await setLanguage("de");
    expect(validateOrderForm(dollars).estimatedretailvalue).toBeUndefined();
    expect(formToPayload(dollars).estimatedretailvalue).toBe("24.99");
  });

  test("Edit Order shows a German reader the value with a decimal comma, and saves it unchanged", async () => {
    const order = anOrder({ estimatedretailvalue: "1234.50", currency: "EUR" });
    expect(orderToForm(order).estimatedretailvalue).toBe("1234.50");
    await setLanguage("de");
    const shown = orderToForm(order);
    expect(shown.estimatedretailvalue).toBe("1234,50");
    expect(formToPayload(shown).estimatedretailvalue).toBe("1234.50");
    expect(changedFields(orderToForm(order), shown)).toEqual({});
    await setLanguage("ja");
    expect(
      orderToForm({ ...order, estimatedretailvalue: "4990", currency: "JPY" }).estimatedretailvalue,
    ).toBe("4990");
  });

  test("Japanese", async () => {
    await setLanguage("ja");
    expect(validateOrderForm(form({ productname: "", asin: "", rating: 0 }))).toEqual({
      productname: "商品名は必須です",
      asin: "ASINは必須です",
      rating: "評価は星1〜5つにしてください",
    });
  });

  test("a German reader's media refusals and AI help errors are German, a Japanese one's Japanese", async () => {
    await setLanguage("de");
    expect(checkFiles([], [], [{ name: "a.txt", type: "text/plain", size: 1 }]).error).toBe(
      "Nur Bild- und Videodateien sind erlaubt",
    );
    expect(enhanceErrorMessage(429, "", "17")).toBe(
      "Zu viele Anfragen. Bitte warten Sie 17 Sekunden und versuchen Sie es dann erneut.",
    );
    await setLanguage("ja");
    expect(
      checkFiles([], [], [{ name: "big.jpg", type: "image/jpeg", size: 11 * 1024 * 1024 }]).error,
    ).toBe("ファイルサイズは10MB未満にしてください");
    expect(enhanceErrorMessage(408, "", null)).toBe(
      "改善に時間がかかりすぎています。もう一度お試しください。",
    );
  });

  test("the review's status line", async () => {
    const shipped = {
      status: "Shipped" as const,
      datereviewsubmitted: null,
      datereviewapproved: null,
      datereviewrejected: null,
      datedelivered: null,
    };
    await setLanguage("de");
    expect(reviewStatusLine(shipped).label).toBe("Nicht eingereicht");
    await setLanguage("ja");
    expect(reviewStatusLine(shipped).label).toBe("未投稿");
  });
});
