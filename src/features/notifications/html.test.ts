import { describe, expect, test } from "bun:test";
import { escapeHtml, html, SafeHtml, toPlainText } from "./html.ts";

describe("escapeHtml", () => {
  test("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    );
  });
  test("leaves other text alone and stringifies non-strings", () => {
    expect(escapeHtml("Café 100% / ok")).toBe("Café 100% / ok");
    expect(escapeHtml(42)).toBe("42");
  });
});

describe("html", () => {
  test("escapes every interpolated value, keeps the literal parts", () => {
    const name = "<img src=x onerror=alert(1)>";
    const out = html`<strong>${name}</strong>`;
    expect(out).toBeInstanceOf(SafeHtml);
    expect(String(out)).toBe("<strong>&lt;img src=x onerror=alert(1)&gt;</strong>");
  });

  test("attribute values cannot break out of their quotes", () => {
    const evil = `/x" onclick="alert(1)`;
    expect(String(html`<a href="${evil}">go</a>`)).toBe(
      '<a href="/x&quot; onclick=&quot;alert(1)">go</a>',
    );
  });

  test("nested html is kept as is (no double escaping); arrays are joined", () => {
    const item = (s: string) => html`<li>${s}</li>`;
    expect(String(html`<ul>${["a&b", "<c>"].map(item)}</ul>`)).toBe(
      "<ul><li>a&amp;b</li><li>&lt;c&gt;</li></ul>",
    );
  });

  test("numbers are written, null, undefined and false are empty", () => {
    expect(String(html`${14} days${null}${undefined}${false}`)).toBe("14 days");
  });

  test("a plain string that looks like SafeHtml is still escaped", () => {
    const fake = { toString: () => "<b>x</b>" };
    expect(String(html`${fake}`)).toBe("&lt;b&gt;x&lt;/b&gt;");
    expect(JSON.stringify({ m: html`<i>${"<"}</i>` })).toBe('{"m":"<i>&lt;</i>"}');
  });

  test("toPlainText: the text of a message for alerts, links left out, values as written", () => {
    const name = `Mug <"Big"> & 'Co'`;
    expect(
      toPlainText(
        html`Delivered: <strong>${name}</strong>. <a href="/orders/1/edit">Write the review</a>`,
      ),
    ).toBe(`Delivered: Mug <"Big"> & 'Co'.`);
    expect(
      toPlainText(html`<strong>2 new orders</strong> from your mail: ${"a"}, ${"b &lt;"}.`),
    ).toBe("2 new orders from your mail: a, b &lt;.");
  });
});
