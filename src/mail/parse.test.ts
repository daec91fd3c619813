/**
 * parseMail: raw bytes → MailMessage through mailparser, as the Amazon reader and the ingest
 * pipeline expect it (ids without brackets, the sender lower-cased, every header in order).
 */
import { describe, expect, test } from "bun:test";
import { load } from "../../test/fixtures/mail/load.ts";
import { readAmazonMail } from "./amazon/reader.ts";
import { parseMail, splitHeaderLine } from "./parse.ts";

const RAW = [
  "Received: from a.example by b.example; Mon, 24 Mar 2025 13:54:08 +0000",
  "Authentication-Results: mx.google.com;",
  "\tdkim=pass header.i=@amazon.com",
  "Authentication-Results: other.example; dkim=fail",
  'From: "Amazon.com" <Auto-Confirm@Amazon.COM>',
  "To: jane@gmail.com",
  "Subject: =?UTF-8?Q?Ordered:_=22Caf=C3=A9_Mug=22?=",
  "Date: Mon, 24 Mar 2025 13:54:08 +0000",
  "Message-ID: <0100.abc@email.amazon.com>",
  "MIME-Version: 1.0",
  'Content-Type: multipart/alternative; boundary="b1"',
  "",
  "--b1",
  "Content-Type: text/plain; charset=UTF-8",
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "Caf=C3=A9 mug, =E2=82=AC12",
  "--b1",
  "Content-Type: text/html; charset=UTF-8",
  "",
  "<p>Café mug</p>",
  "--b1--",
  "",
].join("\r\n");

describe("parseMail", () => {
  test("reads the fields the Amazon reader uses", async () => {
    const m = await parseMail(new TextEncoder().encode(RAW));
    expect(m.messageId).toBe("0100.abc@email.amazon.com");
    expect(m.from).toEqual({ address: "auto-confirm@amazon.com", name: "Amazon.com" });
    expect(m.subject).toBe('Ordered: "Café Mug"');
    expect(m.date?.toISOString()).toBe("2025-03-24T13:54:08.000Z");
    expect(m.text?.trim()).toBe("Café mug, €12");
    expect(m.html?.trim()).toBe("<p>Café mug</p>");
  });

  test("every header line stays, in order, folding undone, repeated ones too", async () => {
    const m = await parseMail(RAW);
    const auth = m.headers.filter((h) => h.name === "authentication-results");
    expect(auth.map((h) => h.value)).toEqual([
      "mx.google.com;\tdkim=pass header.i=@amazon.com",
      "other.example; dkim=fail",
    ]);
    expect(m.headers[0]?.name).toBe("received");
    expect(m.headers.map((h) => h.name)).toContain("content-type");
  });

  test("a string and its UTF-8 bytes give the same message", async () => {
    const fromString = await parseMail(RAW);
    const fromBytes = await parseMail(Buffer.from(RAW, "utf8"));
    expect(fromString).toEqual(fromBytes);
  });

  test("no Message-ID, no From, no Date: nulls, not guesses", async () => {
    const m = await parseMail("Subject: hello\r\n\r\nbody\r\n");
    expect(m.messageId).toBeNull();
    expect(m.from).toBeNull();
    expect(m.date).toBeNull();
    expect(m.subject).toBe("hello");
    expect(m.text?.trim()).toBe("body");
  });

  test("hostile input never throws", async () => {
    const inputs = [
      "",
      "\r\n\r\n",
      "Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n--x\r\n",
      `Subject: ${"=?UTF-8?B?".repeat(5000)}\r\n\r\n`,
      `From: ${"<".repeat(20000)}\r\n\r\n`,
      new Uint8Array([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x0d, 0x0a, 0x80]),
    ];
    for (const raw of inputs) {
      const m = await parseMail(raw);
      expect(Array.isArray(m.headers)).toBe(true);
    }
  });
});

describe("splitHeaderLine", () => {
  test("lower-case name, value after the colon, folding undone", () => {
    expect(splitHeaderLine("X-Thing:  a\r\n\tb")).toEqual({ name: "x-thing", value: "a\tb" });
    expect(splitHeaderLine("no colon here")).toBeNull();
    expect(splitHeaderLine(": empty name")).toBeNull();
    expect(splitHeaderLine("bad name: x")).toBeNull();
  });
});

describe("parseMail", () => {
  test("headers in order, repeated Authentication-Results kept and unfolded", async () => {
    const msg = await load("us-ordered-2025-vine.eml");
    expect(msg.messageId).toBe("01000195c86ea00f-fixture-0001-000000@email.amazonses.com");
    expect(msg.from).toEqual({ address: "auto-confirm@amazon.com", name: "Amazon.com" });
    expect(msg.subject).toBe('Ordered: "Vine Widget Pro 3000 Cordless..."');
    expect(msg.date?.toISOString()).toBe("2025-03-24T13:54:08.000Z");
    const ar = msg.headers.filter((h) => h.name === "authentication-results");
    expect(ar).toHaveLength(1);
    expect(ar[0]?.value).toStartWith("mx.example.net;       dkim=pass header.i=@amazon.com");
    expect(ar[0]?.value).not.toContain("\n");
    expect(msg.headers[0]?.name).toBe("delivered-to");
  });

  test("several Authentication-Results stay in their order", async () => {
    const raw =
      "Authentication-Results: mx.top; dkim=fail header.d=amazon.com\r\n" +
      "Authentication-Results: relay.inner;\r\n dkim=pass\r\n" +
      "From: Amazon <Auto-Confirm@Amazon.com>\r\nSubject: x\r\n\r\nbody\r\n";
    const msg = await parseMail(raw);
    expect(msg.headers.filter((h) => h.name === "authentication-results")).toEqual([
      { name: "authentication-results", value: "mx.top; dkim=fail header.d=amazon.com" },
      { name: "authentication-results", value: "relay.inner; dkim=pass" },
    ]);
    expect(msg.from?.address).toBe("auto-confirm@amazon.com");
    expect(msg.text).toBe("body\n");
    expect(msg.html).toBeNull();
    expect(msg.messageId).toBeNull();
    expect(msg.date).toBeNull();
  });

  test("accepts bytes and never throws on garbage", async () => {
    const bytes = new TextEncoder().encode("Subject: hi\r\n\r\n<p>x</p>");
    expect((await parseMail(bytes)).subject).toBe("hi");
    for (const junk of [
      "",
      "\u0000\u0001\u0002\u0003",
      "no headers at all",
      "From: x\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/html\r\n\r\n<b>trunc",
      new Uint8Array(5000).map((_, i) => (i * 7919) % 256),
    ]) {
      const m = await parseMail(junk);
      expect(m).toHaveProperty("headers");
      expect(() => readAmazonMail(m)).not.toThrow();
    }
  });
});
