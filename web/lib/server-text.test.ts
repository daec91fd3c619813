/**
 * The server's sentences in successful answers (src/contract/text.ts) in the reader's language:
 * a German or Japanese reader gets the catalog sentence of each id with its values, an English
 * reader the same words the server sent, and an id this page's catalog lacks shows the server's
 * words.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { TextPart } from "../../src/contract/text.ts";
import type { UpdateAllTrackingResponse } from "../../src/contract/tracking.ts";
import { setLanguage } from "../i18n/index.ts";
import { mailboxErrorText, serverSentence, serverText } from "./server-text.ts";
import { updateAllToast, updateOrderToast } from "./tracking-toasts.ts";

// Every other test reads English (test/setup.ts): put it back after each one here.
afterEach(() => setLanguage("en"));

// What POST /api/tracking/update-all sends when UPS timed out for one of two orders
// (test/api/tracking-faults.test.ts asserts the server's side).
const ENGLISH =
  "Checked 2 shipped orders: 1 delivered, 0 still on the way. Could not check 1 UPS order (1 timed out). They will be tried again at the next update.";
const PARTS: TextPart[] = [
  {
    code: "tracking.server.checked",
    values: { count: 2, delivered: 1, onTheWay: 0, troubled: 0 },
  },
  {
    code: "tracking.server.couldNotCheck",
    values: {
      count: 1,
      carrier: "UPS",
      reasons: [{ code: "tracking.server.reason.timeout", values: { count: 1, carrier: "UPS" } }],
    },
  },
  { code: "tracking.server.triedAgain" },
];
const answer: UpdateAllTrackingResponse = {
  deliveredOrders: 0,
  totalProcessed: 2,
  successfulUpdates: 1,
  message: ENGLISH,
  messageParts: PARTS,
};

describe("update-all's summary", () => {
  test("an English reader reads the server's words", () => {
    expect(serverText(PARTS, "")).toBe(ENGLISH);
    expect(updateAllToast(answer).description).toBe(ENGLISH);
  });

  test("a German reader reads it in German, the carrier's name untouched", async () => {
    await setLanguage("de");
    expect(updateAllToast(answer).description).toBe(
      "2 versandte Bestellungen geprüft: 1 zugestellt, 0 noch unterwegs. 1 Bestellung mit UPS konnte nicht geprüft werden (1 ohne rechtzeitige Antwort). Sie werden beim nächsten Update erneut versucht.",
    );
  });

  test("a Japanese reader reads it in Japanese", async () => {
    await setLanguage("ja");
    expect(updateAllToast(answer).description).toBe(
      "発送済みの注文2件を確認しました：配達済み1件、配送中0件。UPSの注文1件を確認できませんでした（1件はタイムアウト）。次回の更新時に再試行します。",
    );
  });

  test("an id this catalog does not have (a newer server): the server's words", async () => {
    await setLanguage("de");
    const newer = [...PARTS, { code: "tracking.server.somethingNew" }];
    expect(serverText(newer, ENGLISH)).toBe(ENGLISH);
    expect(serverText(undefined, ENGLISH)).toBe(ENGLISH);
  });
});

describe("a tracking warning", () => {
  test("a German reader reads the warning of a single update in German", async () => {
    await setLanguage("de");
    const toast = updateOrderToast({
      delivered: false,
      order: {} as never,
      warning:
        "Could not get tracking information from FedEx: the carrier did not answer in time. It will be checked again at the next update.",
      warningCode: "tracking.server.failed",
      warningValues: { carrier: "FedEx", reason: "timeout" },
    });
    expect(toast.description).toBe(
      "Keine Sendungsinformationen von FedEx: der Zusteller hat nicht rechtzeitig geantwortet. Beim nächsten Update wird erneut geprüft.",
    );
  });

  test("without a code, the server's words", async () => {
    await setLanguage("de");
    expect(serverSentence(undefined, undefined, "Something.")).toBe("Something.");
  });
});

describe("the mailbox's last error (GET /api/imap/status)", () => {
  const refused = {
    lastError:
      "The mail server is temporarily unavailable: Service temporarily unavailable, try later",
    lastErrorCode: "mailbox.server.unavailable",
    lastErrorValues: { reason: "Service temporarily unavailable, try later" },
  };

  test("a German reader reads our sentence in German, the mail server's own words as they came", async () => {
    await setLanguage("de");
    expect(mailboxErrorText(refused)).toBe(
      "Der Mailserver ist vorübergehend nicht verfügbar: Service temporarily unavailable, try later",
    );
  });

  test("an English reader reads the server's words; a mail server's own sentence (no code) as it came", async () => {
    expect(mailboxErrorText(refused)).toBe(refused.lastError);
    await setLanguage("ja");
    expect(mailboxErrorText({ lastError: "Mailbox is locked", lastErrorCode: null })).toBe(
      "Mailbox is locked",
    );
    expect(mailboxErrorText({ lastError: null, lastErrorCode: null })).toBeNull();
  });
});

describe("an alert channel's test result (POST /api/user/alert-channels/{id}/test)", () => {
  test("a German reader reads what ntfy answered in German", async () => {
    await setLanguage("de");
    expect(
      serverSentence(
        "alerts.server.answered",
        { who: "ntfy", status: 401, reason: "denied" },
        "ntfy answered 401 (access denied: check the address, token or password)",
      ),
    ).toBe("ntfy antwortete 401 (Zugriff verweigert: Prüfen Sie Adresse, Token oder Passwort)");
  });

  // What the test answers when the webhook's server is down (test/api/alerts.test.ts asserts the
  // server's side), and when its name resolves to a refused address.
  const UNREACHABLE = {
    code: "alerts.server.unreachable",
    values: { host: "192.168.1.20:8123", seconds: 5 },
    words:
      "192.168.1.20:8123 could not be reached as a web server (the connection failed, was refused or had no answer within 5 seconds)",
  };
  test("a German or Japanese reader reads a connection failure in their language", async () => {
    const { code, values, words } = UNREACHABLE;
    await setLanguage("de");
    expect(serverSentence(code, values, words)).toBe(
      "192.168.1.20:8123 war als Webserver nicht erreichbar (die Verbindung schlug fehl, wurde abgelehnt oder blieb 5 Sekunden lang ohne Antwort)",
    );
    await setLanguage("ja");
    expect(serverSentence(code, values, words)).toBe(
      "192.168.1.20:8123にWebサーバーとして接続できませんでした（接続の失敗、拒否、または5秒以内に応答がありませんでした）",
    );
  });

  test("a refused address, in German; English is the server's words", async () => {
    const values = { host: "metadata.test", address: "169.254.169.254", why: "metadata" };
    const words =
      "metadata.test resolves to 169.254.169.254, a link-local or cloud metadata address, which alerts are never sent to";
    expect(serverSentence("alerts.server.addressResolves", values, "")).toBe(words);
    expect(serverSentence(UNREACHABLE.code, UNREACHABLE.values, "")).toBe(UNREACHABLE.words);
    await setLanguage("de");
    expect(serverSentence("alerts.server.addressResolves", values, words)).toBe(
      "metadata.test verweist auf 169.254.169.254, eine Link-Local- oder Cloud-Metadaten-Adresse, an die nie Benachrichtigungen gehen",
    );
  });
});

describe("the mailbox's reconnect offer (MailboxAction message)", () => {
  test("a German reader reads the attempts left and the wait in German", async () => {
    await setLanguage("de");
    expect(
      serverSentence(
        "mailbox.server.action.reconnect",
        { left: 3, max: 3, minutes: 15, today: 20 },
        "Reconnect to Gmail now (3 of 3 attempts left in 15 minutes, 20 today)",
      ),
    ).toBe("Jetzt neu mit Gmail verbinden (noch 3 von 3 Versuchen in 15 Minuten, 20 heute)");
    expect(
      serverSentence(
        "mailbox.server.action.tooMany",
        { count: 1, unit: "minutes" },
        "Too many attempts. Try again in 1 minute.",
      ),
    ).toBe("Zu viele Versuche. Versuchen Sie es in 1 Minute erneut.");
  });

  test("English from the same ids is the server's words", () => {
    expect(serverSentence("mailbox.server.action.tooMany", { count: 3, unit: "hours" }, "")).toBe(
      "Too many attempts. Try again in 3 hours.",
    );
  });
});
