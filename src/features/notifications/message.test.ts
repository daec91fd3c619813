import { describe, expect, test } from "bun:test";
import { toPlainText } from "./html.ts";
import { parseMessage, part, renderMessage, yesNo } from "./message.ts";

describe("renderMessage", () => {
  test("values are escaped, <b> is bold, <a> opens the part's link", () => {
    const message = [
      part("server.reminder.reviewDue", { product: `<img src=x onerror="1">`, days: 14 }, "/x?a&b"),
    ];
    expect(renderMessage("en", message).toString()).toBe(
      'Review due: <strong>&lt;img src=x onerror=&quot;1&quot;&gt;</strong> was delivered 14 days ago. <a href="/x?a&amp;b">Write the review</a>',
    );
    expect(renderMessage("de", message).toString()).toBe(
      'Rezension fällig: <strong>&lt;img src=x onerror=&quot;1&quot;&gt;</strong> wurde vor 14 Tagen zugestellt. <a href="/x?a&amp;b">Rezension schreiben</a>',
    );
  });

  test("a value that looks like markup or a value marker stays text", () => {
    const html = renderMessage("en", [
      part("server.mailbox.expired", { address: "<b>\uE0000\uE001</b>@example.com" }),
    ]).toString();
    expect(html).toStartWith(
      "Gmail refused the saved credentials for <strong>&lt;b&gt;\uE0000\uE001&lt;/b&gt;@example.com</strong>,",
    );
  });

  test("a part without a link leaves its link text out", () => {
    expect(
      renderMessage("en", [
        part("server.reminder.reviewDue", { product: "A", days: 14 }),
      ]).toString(),
    ).toBe("Review due: <strong>A</strong> was delivered 14 days ago.");
  });

  test("lists in the language's separator, nested messages, selects, plurals", () => {
    const message = [
      part("server.scan.updated", {
        count: 3,
        source: { choice: "import" },
        changes: [
          part("server.scan.change.shipped", { count: 2 }),
          part("server.scan.change.delivered", { count: 1 }),
        ],
      }),
      part("server.scan.notUnderstood", { count: 1 }),
    ];
    expect(renderMessage("en", message).toString()).toBe(
      "<strong>3 orders updated</strong> from your imported mail: 2 shipped, 1 delivered. 1 email from Amazon was not understood; it is read again when Grapevine&#39;s mail reader is updated.",
    );
    // Japanese: its own separator, no space between sentences, one plural form.
    expect(renderMessage("ja", message).toString()).toBe(
      "取り込んだメールから<strong>3件の注文を更新</strong>: 発送済み 2件、配達済み 1件。Amazon からのメール 1件を読み取れませんでした。Grapevine のメール読み取り機能の更新後に再度読み込まれます。",
    );
    const names = part("server.tracking.deliveredMany", { count: 2, names: ["A & B", "C"] });
    expect(toPlainText(renderMessage("fr", [names]))).toBe(
      "2 commandes livrées selon le suivi du transporteur : A & B, C.",
    );
    const delivered = (details: string | null) =>
      renderMessage("en", [
        part(
          "server.tracking.delivered",
          { product: "Mug", hasDetails: yesNo(details), details: details ?? "" },
          "/o",
        ),
      ]).toString();
    expect(delivered(null)).toBe(
      'Delivered: <strong>Mug</strong>. <a href="/o">Write the review</a>',
    );
    expect(delivered("blue")).toBe(
      'Delivered: <strong>Mug</strong> (blue). <a href="/o">Write the review</a>',
    );
  });
});

test("parseMessage reads stored content back, and nothing else", () => {
  const message = [part("server.alerts.testTitle")];
  expect(parseMessage(JSON.stringify(message))).toEqual(message);
  expect(parseMessage(null)).toBeNull();
  expect(parseMessage("not json")).toBeNull();
  expect(parseMessage('{"id":"x"}')).toBeNull();
  expect(parseMessage("[1]")).toBeNull();
});
