/** The streaming mbox splitter and the file sniffer. */
import { describe, expect, test } from "bun:test";
import { chunked } from "../../test/support/chunked.ts";
import { type MboxMessage, sniffMailFile, splitMbox } from "./mbox.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

async function split(text: string, size = 1 << 16, max?: number): Promise<MboxMessage[]> {
  const out: MboxMessage[] = [];
  const opts = max === undefined ? {} : { maxMessageBytes: max };
  for await (const m of splitMbox(chunked(enc.encode(text), size), opts)) out.push(m);
  return out;
}
const texts = (ms: MboxMessage[]) => ms.map((m) => dec.decode(m.bytes));

const PM = (n: number) => `From 17${n}@xxx Mon Jan 06 10:0${n}:00 +0000 2025`;

const MBOX = [
  PM(1),
  "From: a@example.com",
  "Subject: one",
  "",
  "Hello",
  ">From the desk of someone",
  ">>From a quoted quote",
  "From here on this line is not a separator (no blank line before it)",
  "",
  PM(2),
  "From: b@example.com",
  "Subject: two",
  "",
  "Body two",
  "",
  "From what I saw, this paragraph is not a postmark either",
  "",
  PM(3),
  "Subject: three",
  "",
  "last",
  "",
].join("\n");

describe("splitMbox", () => {
  test("splits at postmark lines after a blank line, unquotes >From, drops the separator blank", async () => {
    const ms = await split(MBOX);
    expect(ms.map((m) => m.index)).toEqual([0, 1, 2]);
    expect(texts(ms)).toEqual([
      [
        "From: a@example.com",
        "Subject: one",
        "",
        "Hello",
        "From the desk of someone",
        ">From a quoted quote",
        "From here on this line is not a separator (no blank line before it)",
        "",
      ].join("\n"),
      [
        "From: b@example.com",
        "Subject: two",
        "",
        "Body two",
        "",
        "From what I saw, this paragraph is not a postmark either",
        "",
      ].join("\n"),
      ["Subject: three", "", "last", ""].join("\n"),
    ]);
    expect(ms.every((m) => !m.truncated)).toBe(true);
  });

  test("the same result whatever the chunk size (1, 2, 3, 7 and 64 bytes)", async () => {
    const whole = texts(await split(MBOX));
    for (const size of [1, 2, 3, 7, 64]) expect(texts(await split(MBOX, size))).toEqual(whole);
  });

  test("CRLF line endings are kept and handled like LF", async () => {
    const crlf = MBOX.replace(/\n/g, "\r\n");
    const ms = texts(await split(crlf, 5));
    expect(ms).toHaveLength(3);
    expect(ms[0]).toStartWith("From: a@example.com\r\nSubject: one\r\n\r\nHello\r\nFrom the desk");
    expect(ms[2]).toBe("Subject: three\r\n\r\nlast\r\n");
  });

  test("leading blank lines, no trailing newline, an empty file", async () => {
    expect(texts(await split(`\n\n${PM(1)}\nSubject: x\n\nbody`))).toEqual(["Subject: x\n\nbody"]);
    expect(await split("")).toEqual([]);
  });

  test("a very long line (longer than a chunk) is kept whole", async () => {
    const long = "x".repeat(5000);
    const ms = texts(
      await split(`${PM(1)}\nSubject: a\n\n${long}\n>From y\n\n${PM(2)}\nSubject: b\n\nz\n`, 300),
    );
    expect(ms).toEqual([`Subject: a\n\n${long}\nFrom y\n`, "Subject: b\n\nz\n"]);
  });

  test("a message over the cap is flagged truncated and the next one is intact", async () => {
    const big = "y".repeat(2000);
    const ms = await split(
      `${PM(1)}\nSubject: big\n\n${big}\n\n${PM(2)}\nSubject: small\n\nok\n`,
      100,
      500,
    );
    expect(ms).toHaveLength(2);
    expect(ms[0]?.truncated).toBe(true);
    expect(ms[0]?.bytes.length).toBe(500);
    expect(ms[1]?.truncated).toBe(false);
    expect(dec.decode(ms[1]?.bytes)).toBe("Subject: small\n\nok\n");
  });

  test("takes Node streams (async iterables) as well", async () => {
    async function* gen() {
      yield enc.encode(`${PM(1)}\nSubject: a\n\n`);
      yield enc.encode(`x\n`);
    }
    const out: string[] = [];
    for await (const m of splitMbox(gen())) out.push(dec.decode(m.bytes));
    expect(out).toEqual(["Subject: a\n\nx\n"]);
  });
});

describe("sniffMailFile", () => {
  test("mbox, eml, empty, unknown", () => {
    expect(sniffMailFile(enc.encode(`${PM(1)}\nSubject: x\n`))).toBe("mbox");
    expect(sniffMailFile(enc.encode("\r\nDelivered-To: a@b.c\r\nFrom: x\r\n"))).toBe("eml");
    expect(sniffMailFile(enc.encode("\uFEFFReturn-Path: <a@b.c>\n"))).toBe("eml");
    expect(sniffMailFile(enc.encode(""))).toBe("empty");
    expect(sniffMailFile(enc.encode("  \n\r\n"))).toBe("empty");
    expect(sniffMailFile(enc.encode("%PDF-1.7\n..."))).toBe("unknown");
    expect(sniffMailFile(enc.encode("just some words: here"))).toBe("unknown");
    expect(sniffMailFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe("unknown");
  });
});
