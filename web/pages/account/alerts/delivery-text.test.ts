/**
 * A channel's last deliveries and its paused notice in the reader's language: the server's
 * result text (test/api/alerts.test.ts asserts the server's side) through the catalog, the far
 * side's status untouched; a row from before texts shows the server's English words.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { AlertDelivery } from "../../../../src/contract/alerts.ts";
import { setLanguage } from "../../../i18n/index.ts";
import { deliveryResult, pausedNotice } from "./delivery-text.ts";

// Every other test reads English (test/setup.ts): put it back after each one here.
afterEach(() => setLanguage("en"));

const answered = {
  code: "alerts.server.answered",
  values: { who: "webhook", status: 500, reason: "serverError" },
};
// A webhook that answered 500 five times (what GET /api/user/alert-channels lists).
const gaveUp: AlertDelivery = {
  id: 3,
  at: "2026-03-10T12:00:00.000Z",
  event: "shipped",
  status: "failed",
  result: "The webhook answered 500 (an error on its side); gave up after 5 tries",
  resultCode: "alerts.server.gaveUp",
  resultValues: { result: [answered], count: 5 },
  attempts: 5,
};
const retrying: AlertDelivery = {
  ...gaveUp,
  status: "pending",
  result: "The webhook answered 500 (an error on its side); trying again",
  resultCode: "alerts.server.tryingAgain",
  resultValues: { result: [answered] },
  attempts: 1,
};
const paused = {
  at: "2026-03-11T12:00:01.000Z",
  reason:
    "No alert could be delivered for a day; the last answer was: The webhook answered 400 (it did not accept the alert)",
  reasonCode: "alerts.server.failedForADay",
  reasonValues: {
    answer: [
      {
        code: "alerts.server.answered",
        values: { who: "webhook", status: 400, reason: "refused" },
      },
    ],
  },
};

describe("a channel's last deliveries", () => {
  test("an English reader reads the server's words", () => {
    expect(deliveryResult(gaveUp)).toBe(`Failed: ${gaveUp.result}`);
    expect(deliveryResult(retrying)).toBe(`Waiting: ${retrying.result}`);
    expect(pausedNotice(paused)).toBe(`Paused: ${paused.reason}`);
  });

  test("a German reader reads them in German, the status as it came", async () => {
    await setLanguage("de");
    expect(deliveryResult(gaveUp)).toBe(
      "Fehlgeschlagen: Der Webhook antwortete 500 (ein Fehler auf seiner Seite); nach 5 Versuchen aufgegeben",
    );
    expect(deliveryResult(retrying)).toBe(
      "Wartet: Der Webhook antwortete 500 (ein Fehler auf seiner Seite); neuer Versuch folgt",
    );
    expect(
      deliveryResult({
        ...gaveUp,
        status: "sent",
        result: "ntfy answered 200",
        resultCode: "alerts.server.sent",
        resultValues: { who: "ntfy", status: 200 },
      }),
    ).toBe("ntfy antwortete 200");
    expect(pausedNotice(paused)).toBe(
      "Pausiert: Einen Tag lang konnte keine Benachrichtigung zugestellt werden; die letzte Antwort war: Der Webhook antwortete 400 (die Benachrichtigung wurde nicht angenommen)",
    );
  });

  test("a Japanese reader reads them in Japanese", async () => {
    await setLanguage("ja");
    expect(deliveryResult(gaveUp)).toBe(
      "失敗：Webhookが500を返しました（相手側のエラー）。5回試して中止しました",
    );
  });

  test("a row from before texts, or an id this page does not know, shows the server's words", async () => {
    await setLanguage("de");
    const old: AlertDelivery = { ...gaveUp, resultCode: undefined, resultValues: undefined };
    expect(deliveryResult(old)).toBe(`Fehlgeschlagen: ${gaveUp.result}`);
    expect(deliveryResult({ ...gaveUp, resultCode: "alerts.server.newerThanThisPage" })).toBe(
      `Fehlgeschlagen: ${gaveUp.result}`,
    );
    expect(deliveryResult({ ...gaveUp, status: "pending", result: null })).toBe(
      "Wartet: noch nicht gesendet",
    );
  });
});
