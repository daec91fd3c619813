/**
 * The admin's "mailbox supervisor failing" notice says the mailbox's last error in the admin's
 * language (its `mailbox.server.*` text), English word for word the error's English.
 */
import { describe, expect, test } from "bun:test";
import { imapError } from "../../mail/imap/client.ts";
import { toPlainText } from "../notifications/html.ts";
import { renderMessage } from "../notifications/message.ts";
import { supervisorFailingNotice } from "./mailbox.outage.ts";

// What the supervisor keeps when Gmail refuses the connection (src/mail/imap/client.ts).
const refused = imapError("network", "connectionRefused", {
  host: "imap.gmail.com",
  where: "imap.gmail.com:993",
});
const notice = (lastError: string | null, lastErrorText = refused.text ?? null) =>
  supervisorFailingNotice({
    userId: 2,
    emailAddress: "guy@example.test",
    minutes: 31,
    lastError,
    lastErrorText,
  });
const said = (language: "en" | "de" | "ja", n: ReturnType<typeof notice>) =>
  toPlainText(renderMessage(language, n));

describe("supervisorFailingNotice", () => {
  test("English: the error's own English words, as before languages", () => {
    expect(refused.message).toBe(
      "imap.gmail.com:993 refused the connection: no mail server is listening there.",
    );
    expect(said("en", notice(refused.message))).toBe(
      said("en", notice(refused.message, null)), // the error as a plain string
    );
    expect(said("en", notice(refused.message))).toContain(
      "for 31 minutes: imap.gmail.com:993 refused the connection: no mail server is listening there. Their Amazon mail",
    );
  });

  test("German and Japanese: the error in the admin's language, not English", () => {
    const de = said("de", notice(refused.message));
    expect(de).toContain(
      "seit 31 Minuten nicht mit Gmail verbinden: imap.gmail.com:993 hat die Verbindung abgelehnt: Dort wartet kein Mailserver.",
    );
    expect(de).not.toContain("refused");
    expect(said("ja", notice(refused.message))).toContain(
      "imap.gmail.com:993が接続を拒否しました：メールサーバーが待ち受けていません。",
    );
  });

  test("words that are not ours stay as they came, escaped", () => {
    const login = imapError("auth", "loginRefused", { reason: "<b>Try</b> later" });
    const html = renderMessage("de", notice(login.message, login.text ?? null)).toString();
    expect(html).toContain("Der Server hat die Anmeldung abgelehnt: &lt;b&gt;Try&lt;/b&gt; later");
    // No text (a foreign error): the English words, as the supervisor kept them.
    expect(said("de", notice("Mailbox is locked", null))).toContain(": Mailbox is locked");
  });

  test("no error: the sentence ends without one", () => {
    expect(said("en", notice(null, null))).toContain("for 31 minutes. Their Amazon mail");
  });
});
