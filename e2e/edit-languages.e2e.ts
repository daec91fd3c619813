/**
 * Edit Order and Add Order in the reader's language: a browser set to German, French, Spanish,
 * Italian or Japanese (first visit: the browser's language) shows the order screens and the
 * form's checks in that language; German and Japanese on a phone in dark mode. Screens are shot
 * for people when E2E_SHOTS_DIR is set.
 */
import path from "node:path";
import type { Page } from "@playwright/test";
import { signInWithToken } from "./support/api.ts";
import { createOrderApi, expect, orderNumber, test } from "./support/orders.ts";

const SHOTS = process.env.E2E_SHOTS_DIR;
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** What the phone test reads in German and Japanese beyond the first test's words. */
const MORE: Record<
  string,
  {
    enhanceText: string;
    dialog: string;
    accept: string;
    reason: string;
    note: string;
    notMedia: string;
    saved: string;
  }
> = {
  de: {
    enhanceText: "Rezensionstext verbessern",
    dialog: "Rezension verbessern",
    accept: "Übernehmen",
    reason: "Grund",
    note: "Notiz",
    notMedia: "Nur Bild- und Videodateien sind erlaubt",
    saved: "Bestellung gespeichert",
  },
  ja: {
    enhanceText: "レビュー本文を改善",
    dialog: "レビューを改善",
    accept: "適用",
    reason: "理由",
    note: "メモ",
    notMedia: "画像と動画のファイルのみ追加できます",
    saved: "注文を更新しました",
  },
};

type Words = {
  locale: string;
  editTitle: string;
  reviewTab: string;
  subject: string;
  addTitle: string;
  addButton: string;
  nameRequired: string;
};
const LANGUAGES: Record<string, Words> = {
  de: {
    locale: "de-DE",
    editTitle: "Bestellung bearbeiten",
    reviewTab: "Rezension",
    subject: "Titel der Rezension",
    addTitle: "Bestellung hinzufügen",
    addButton: "Hinzufügen",
    nameRequired: "Produktname ist erforderlich",
  },
  fr: {
    locale: "fr-FR",
    editTitle: "Modifier la commande",
    reviewTab: "Commentaire",
    subject: "Titre du commentaire",
    addTitle: "Ajouter une commande",
    addButton: "Ajouter",
    nameRequired: "Le nom du produit est obligatoire",
  },
  es: {
    locale: "es-ES",
    editTitle: "Editar pedido",
    reviewTab: "Reseña",
    subject: "Título de la reseña",
    addTitle: "Añadir pedido",
    addButton: "Añadir pedido",
    nameRequired: "El nombre del producto es obligatorio",
  },
  it: {
    locale: "it-IT",
    editTitle: "Modifica ordine",
    reviewTab: "Recensione",
    subject: "Titolo della recensione",
    addTitle: "Aggiungi ordine",
    addButton: "Aggiungi ordine",
    nameRequired: "Il nome del prodotto è obbligatorio",
  },
  ja: {
    locale: "ja-JP",
    editTitle: "注文を編集",
    reviewTab: "レビュー",
    subject: "レビューのタイトル",
    addTitle: "注文を追加",
    addButton: "追加",
    nameRequired: "商品名は必須です",
  },
};

for (const [language, words] of Object.entries(LANGUAGES)) {
  const phone = language === "de" || language === "ja";
  test.describe(`in ${language}`, () => {
    test.use({
      locale: words.locale,
      ...(phone
        ? { viewport: { width: 390, height: 844 }, colorScheme: "dark" as const, isMobile: true }
        : {}),
    });

    test("Edit Order, Add Order and a check of the form", async ({ page, request, user }) => {
      const order = await createOrderApi(request, user.token, {
        productname: "Kabellose Kopfhörer mit Geräuschunterdrückung und sehr langem Namen",
        asin: "B0LANG0001",
        amazonordernumber: orderNumber(),
        status: "Received",
        datedelivered: new Date(Date.now() - 3 * 86_400_000).toISOString(),
        estimatedretailvalue: "24.99",
        trackingnumber: "1Z999AA10123456784",
        carrier: "UPS",
      });
      await signInWithToken(page, user.token, `/orders/${order.orderid}/edit`);
      await expect(page.getByRole("heading", { name: words.editTitle, level: 1 })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await shot(page, `${language}-edit-product`);
      await page.getByRole("tab").nth(1).click();
      await shot(page, `${language}-edit-shipping`);
      await page.getByRole("tab", { name: words.reviewTab }).click();
      await expect(page.getByLabel(words.subject)).toBeVisible();
      await shot(page, `${language}-edit-review`);

      await page.goto("/orders/new");
      await expect(page.getByRole("heading", { name: words.addTitle, level: 1 })).toBeVisible();
      await page.getByRole("button", { name: words.addButton, exact: true }).click();
      await expect(page.getByText(words.nameRequired)).toBeVisible();
      await shot(page, `${language}-add-errors`);
    });

    const more = MORE[language];
    if (more) {
      test("the AI help, Can't review and a refused file", async ({ page, request, user }) => {
        const res = await request.put("/api/user/review-settings", {
          headers: auth(user.token),
          data: {
            targetWordCount: 150,
            aiEditingOption: "Improve Writing",
            toneAllocation: {
              humorous: 0,
              professional: 50,
              friendly: 50,
              concise: 0,
              encouraging: 0,
              formal: 0,
            },
            autoGenerateSubject: true,
          },
        });
        expect(res.status(), await res.text()).toBe(200);
        const order = await createOrderApi(request, user.token, {
          productname: "Bambus-Schneidebrett, groß",
          asin: "B0LANG0002",
          amazonordernumber: orderNumber(),
          status: "Received",
          reviewtext: "das brett ist groß und rutscht nicht auf der arbeitsplatte",
        });
        await signInWithToken(page, user.token, `/orders/${order.orderid}/edit?section=review`);
        const main = page.getByRole("main");

        await main.getByRole("button", { name: more.enhanceText }).click();
        const dialog = page.getByRole("dialog", { name: more.dialog });
        await expect(dialog.getByRole("button", { name: more.accept })).toBeVisible();
        await shot(page, `${language}-enhance-dialog`);
        await dialog.getByRole("button", { name: more.accept }).click();
        await expect(dialog).toBeHidden();

        await main.getByRole("combobox", { name: more.reason }).selectOption("damaged");
        await expect(main.getByLabel(more.note)).toBeVisible();
        await main.locator("input[type=file]").setInputFiles({
          name: "notes.txt",
          mimeType: "text/plain",
          buffer: Buffer.from("not a picture"),
        });
        await expect(main.getByRole("alert").filter({ hasText: more.notMedia })).toBeVisible();
        await shot(page, `${language}-review-cant-review`);
        await page.getByRole("button", { name: /^(Speichern|保存)$/ }).click();
        await expect(page.getByText(more.saved)).toBeVisible();
      });
    }
  });
}
