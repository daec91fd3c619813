/**
 * The mailbox card's last error when Google's token endpoint refused or did not answer
 * (test/api/oauth.test.ts asserts the server's side): the sentence in the reader's language,
 * Google's own code and words as they came.
 */
import { afterEach, expect, test } from "bun:test";
import { i18n } from "@lingui/core";
import german from "../../locales/de.json";
import { mailboxErrorText } from "./server-text.ts";

afterEach(() => i18n.activate("en", ["en-US"]));

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

test("a German reader reads Google's refusal in German, Google's words untouched", () => {
  const status = (t: ReturnType<typeof answered>, english: string) => ({
    lastError: english,
    lastErrorCode: t.code,
    lastErrorValues: t.values,
  });
  const english = "Google's token endpoint answered 500 internal_failure: Backend Error";
  expect(mailboxErrorText(status(answered(true), english))).toBe(english);
  i18n.load("de", german);
  i18n.activate("de", ["de-DE"]);
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
