/**
 * An import that stopped before its end: the Email tab says it from the file's name and count in
 * the reader's language; in English word for word what the API's `message` says.
 */
import { afterEach, expect, test } from "bun:test";
import { interruptedMessage } from "../../../../src/features/mailbox/mail-import.service.ts";
import { setLanguage, translate } from "../../../i18n/index.ts";

afterEach(async () => {
  await setLanguage("en");
});

test("English is the server's sentence, for none, one and many messages read", () => {
  for (const read of [0, 1, 1500]) {
    expect(translate("email.import.interrupted", { file: "takeout.mbox", read })).toBe(
      interruptedMessage("takeout.mbox", read),
    );
  }
});

test("a German and a Japanese reader read it in their language", async () => {
  await setLanguage("de");
  expect(translate("email.import.interrupted", { file: "t.mbox", read: 1500 })).toContain(
    "nach 1.500 Nachrichten unterbrochen",
  );
  await setLanguage("ja");
  expect(translate("email.import.interrupted", { file: "t.mbox", read: 0 })).toStartWith(
    "「t.mbox」のインポートはメッセージを読み込む前に中断し",
  );
});
