/**
 * Mailbox failures in the reader's language: the card's last error when Google's token endpoint
 * refused or did not answer (test/api/oauth.test.ts asserts the server's side), Google's own code
 * and words as they came; and a failed call whose reason is a server text (`texts` of the error
 * answer; test/api/imap-faults.test.ts).
 */
import { afterEach, expect, test } from "bun:test";
import { setLanguage } from "../i18n/index.ts";
import { ApiError, errorMessage } from "./api.ts";
import { mailboxErrorText } from "./server-text.ts";

afterEach(() => setLanguage("en"));

const answered = (hasDescription: boolean) => ({
  code: "mailbox.server.googleAnswered",
  values: {
    what: "token",
    status: 500,
    hasCode: "yes",
    code: "internal_failure",
    hasDescription: hasDescription ? "yes" : "no",
    description: hasDescription ? "Backend Error" : "",
  },
});

test("a German reader reads Google's refusal in German, Google's words untouched", async () => {
  const status = (t: ReturnType<typeof answered>, english: string) => ({
    lastError: english,
    lastErrorCode: t.code,
    lastErrorValues: t.values,
  });
  const english = "Google's token endpoint answered 500 internal_failure: Backend Error";
  expect(mailboxErrorText(status(answered(true), english))).toBe(english);
  await setLanguage("de");
  expect(mailboxErrorText(status(answered(true), english))).toBe(
    "Der Token-Endpunkt von Google antwortete 500 internal_failure: Backend Error",
  );
  expect(
    mailboxErrorText(
      status(answered(false), "Google's token endpoint answered 500 internal_failure"),
    ),
  ).toBe("Der Token-Endpunkt von Google antwortete 500 internal_failure");
  expect(
    mailboxErrorText({
      lastError: "No refresh token is stored",
      lastErrorCode: "mailbox.server.noRefreshToken",
    }),
  ).toBe("Es ist kein Aktualisierungstoken gespeichert");
});

test("a failed connect's reason in the reader's language; without its text, the server's words", async () => {
  const english = "Could not find imap.example.test: no such server name, or DNS is not answering.";
  const failed = (texts?: Record<string, { code: string; values?: Record<string, string> }>) =>
    new ApiError(
      502,
      "",
      english,
      new Headers(),
      "mail_server_unreachable",
      { reason: english },
      texts,
    );
  const withText = failed({
    reason: {
      code: "mailbox.server.notFound",
      values: { host: "imap.example.test", where: "imap.example.test:993" },
    },
  });
  expect(errorMessage(withText, "")).toBe(english);
  await setLanguage("de");
  expect(errorMessage(withText, "")).toBe(
    "Der Mailserver ist nicht erreichbar: imap.example.test wurde nicht gefunden: Diesen Servernamen gibt es nicht, oder das DNS antwortet nicht.",
  );
  expect(errorMessage(failed(), "")).toBe(`Der Mailserver ist nicht erreichbar: ${english}`);
});
