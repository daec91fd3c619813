/**
 * mime.ts (the fast path of parseMail) against mailparser, message by message: whenever
 * fastParse answers, its MailMessage must equal the mailparser path's exactly. Inputs: the public
 * corpus (../shared/corpus/emails, skipped when absent), the team's fixtures, the test builders,
 * generated MIME shapes and a seeded fuzzer over them.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { amazonMail, plainMail } from "../../test/api/mail-messages.ts";
import { prng } from "../../test/support/prng.ts";
import type { MailMessage } from "./amazon/types.ts";
import { fastParse } from "./mime.ts";
import { parseMail, parseWithMailparser } from "./parse.ts";

const ROOT = path.resolve(import.meta.dir, "..", "..");
const CORPUS = path.resolve(ROOT, "..", "shared", "corpus", "emails");
const FIXTURES = path.join(ROOT, "test", "fixtures", "mail");

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const latin = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "latin1"));
const cat = (...parts: Array<string | Uint8Array>): Uint8Array =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p))));

function emlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...emlFiles(p));
    else if (e.name.endsWith(".eml")) out.push(p);
  }
  return out.sort();
}

const show = (m: MailMessage) => JSON.stringify({ ...m, date: m.date?.toISOString() ?? null });

/** fastParse vs the mailparser path: null when they agree (or fastParse declines), else a diff. */
async function differ(raw: Uint8Array): Promise<{ fast: boolean; diff: string | null }> {
  const fast = fastParse(raw);
  if (!fast) return { fast: false, diff: null };
  const slow = await parseWithMailparser(raw);
  const a = show(fast);
  const b = show(slow);
  if (a === b) return { fast: true, diff: null };
  let i = 0;
  while (a[i] === b[i]) i++;
  const at = Math.max(0, i - 150);
  return {
    fast: true,
    diff: `at ${i}\nfast: ${a.slice(at, i + 150)}\nslow: ${b.slice(at, i + 150)}`,
  };
}

async function expectSame(raw: Uint8Array): Promise<boolean> {
  const fast = fastParse(raw);
  if (!fast) return false;
  expect(fast).toEqual(await parseWithMailparser(raw));
  expect(show(fast)).toBe(show(await parseWithMailparser(raw)));
  return true;
}

// --- generated shapes ------------------------------------------------------------------------

const HEAD = [
  "Delivered-To: jane@gmail.com",
  "Authentication-Results: mx.google.com;\r\n       dkim=pass header.i=@amazon.com;\r\n       spf=pass smtp.mailfrom=amazon.com",
  'From: "Amazon.com" <shipment-tracking@amazon.com>',
  "To: jane@gmail.com",
  "Subject: Shipped: your order",
  "Date: Tue, 14 Jan 2025 15:04:05 +0000",
  "Message-ID: <abc.123@email.amazonses.com>",
  "MIME-Version: 1.0",
];
const HTML =
  '<!doctype html><html><body><p>Order # <a href="https://www.amazon.com/x?a=1&amp;b=2">113-1234567-1234567</a></p>\r\n<p>Caf\u00e9 \u2014 \u20ac5</p></body></html>';
const TEXT = "Your order 113-1234567-1234567 has shipped.\r\nTrack it: https://amazon.com/t\r\n";
const B64_IMG = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256)).toString("base64");
const wrap76 = (s: string) => s.replace(/.{1,76}/g, "$&\r\n");

function mail(head: string[], body: string | Uint8Array, eol = "\r\n"): Uint8Array {
  const h = `${head.join("\r\n")}\r\n\r\n`.replace(/\r\n/g, eol);
  return cat(h, typeof body === "string" ? body.replace(/\r\n/g, eol) : body);
}

function shapes(): Array<[string, Uint8Array]> {
  const out: Array<[string, Uint8Array]> = [];
  const add = (name: string, raw: Uint8Array) => out.push([name, raw]);
  const alt = (b: string) =>
    `--${b}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${TEXT}\r\n` +
    `--${b}\r\nContent-Type: text/html; charset="UTF-8"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${HTML}\r\n--${b}--\r\n`;
  const altHead = (b: string) => [...HEAD, `Content-Type: multipart/alternative; boundary="${b}"`];

  add(
    "html only",
    mail(
      [...HEAD, "Content-Type: text/html; charset=UTF-8", "Content-Transfer-Encoding: 8bit"],
      `${HTML}\r\n`,
    ),
  );
  add("text only, no content type", mail(HEAD, TEXT));
  add(
    "text only, trailing blank lines",
    mail([...HEAD, "Content-Type: text/plain"], `${TEXT}\r\n\r\n\r\n`),
  );
  add("alternative", mail(altHead("b1"), alt("b1")));
  add("alternative LF", mail(altHead("b1"), alt("b1"), "\n"));
  add(
    "alternative, preamble and epilogue",
    mail(
      altHead("b1"),
      `This is a multi-part message.\r\n\r\n${alt("b1")}epilogue text\r\n--b1\r\nmore\r\n`,
    ),
  );
  add(
    "alternative, missing final boundary",
    mail(altHead("b1"), alt("b1").replace("--b1--\r\n", "")),
  );
  add(
    "alternative, missing final boundary, no newline",
    mail(altHead("b1"), alt("b1").replace("\r\n--b1--\r\n", "")),
  );
  add(
    "alternative, final boundary without newline",
    mail(altHead("b1"), alt("b1").replace(/\r\n$/, "")),
  );
  add(
    "alternative, html first",
    mail(
      altHead("=_x"),
      `--=_x\r\nContent-Type: text/html\r\n\r\n${HTML}\r\n--=_x\r\nContent-Type: text/plain\r\n\r\n${TEXT}--=_x--\r\n`,
    ),
  );
  add(
    "alternative, empty html",
    mail(
      altHead("b1"),
      `--b1\r\nContent-Type: text/plain\r\n\r\n${TEXT}\r\n--b1\r\nContent-Type: text/html\r\n\r\n\r\n--b1--\r\n`,
    ),
  );
  add(
    "alternative, one-line-end body",
    mail(altHead("b1"), `--b1\r\nContent-Type: text/plain\r\n\r\n\r\n--b1--\r\n`),
  );
  add(
    "alternative, boundary-like lines",
    mail(
      altHead("b1"),
      `--b1\r\nContent-Type: text/plain\r\n\r\n--b1x\r\n--b\r\n---b1\r\n --b1\r\n${TEXT}\r\n--b1--\r\n`,
    ),
  );
  const mixed =
    `--m1\r\nContent-Type: multipart/alternative; boundary=a1\r\n\r\n${alt("a1")}\r\n` +
    `--m1\r\nContent-Type: application/pdf; name="invoice.pdf"\r\nContent-Disposition: attachment; filename="invoice.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n${wrap76(B64_IMG)}\r\n--m1--\r\n`;
  add(
    "mixed with attachment",
    mail([...HEAD, "Content-Type: multipart/mixed; boundary=m1"], mixed),
  );
  add(
    "mixed with attachment LF",
    mail([...HEAD, "Content-Type: multipart/mixed; boundary=m1"], mixed, "\n"),
  );
  add(
    "mixed, text and html inline (not alternative)",
    mail(
      [...HEAD, "Content-Type: multipart/mixed; boundary=m1"],
      `--m1\r\nContent-Type: text/plain\r\n\r\n${TEXT}\r\n--m1\r\nContent-Type: text/html\r\n\r\n${HTML}\r\n--m1\r\nContent-Type: text/plain\r\nContent-Disposition: inline\r\n\r\nsecond text\r\n--m1--\r\n`,
    ),
  );
  add(
    "mixed, text attachment",
    mail(
      [...HEAD, "Content-Type: multipart/mixed; boundary=m1"],
      `--m1\r\nContent-Type: text/html\r\n\r\n${HTML}\r\n--m1\r\nContent-Type: text/plain; name=a.txt\r\nContent-Disposition: attachment; filename=a.txt\r\n\r\nattached\r\n--m1\r\nContent-Type: text/calendar\r\n\r\nBEGIN:VCALENDAR\r\n--m1--\r\n`,
    ),
  );
  add(
    "mixed, two html parts",
    mail(
      [...HEAD, "Content-Type: multipart/mixed; boundary=m1"],
      `--m1\r\nContent-Type: text/html\r\n\r\n<p>one</p>\r\n--m1\r\nContent-Type: text/html\r\n\r\n<p>two</p>\r\n--m1--\r\n`,
    ),
  );
  const related =
    `--r1\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<img src=3D"cid:logo@x">=\r\n<p>Hi</p>\r\n` +
    `--r1\r\nContent-Type: image/png\r\nContent-ID: <logo@x>\r\nContent-Disposition: inline; filename=logo.png\r\nContent-Transfer-Encoding: base64\r\n\r\n${wrap76(B64_IMG)}--r1--\r\n`;
  add(
    "related with inline image",
    mail([...HEAD, 'Content-Type: multipart/related; type="text/html"; boundary="r1"'], related),
  );
  add(
    "nested mixed > related > alternative",
    mail(
      [...HEAD, "Content-Type: multipart/mixed; boundary=outer"],
      `--outer\r\nContent-Type: multipart/related; boundary=r1\r\n\r\n--r1\r\nContent-Type: multipart/alternative; boundary=a1\r\n\r\n${alt("a1")}\r\n--r1\r\nContent-Type: image/gif\r\nContent-ID: <g>\r\n\r\nGIF89a\r\n--r1--\r\n\r\n--outer\r\nContent-Type: application/octet-stream\r\n\r\nxx\r\n--outer--\r\n`,
    ),
  );
  add(
    "nested, inner never closed",
    mail(
      [...HEAD, "Content-Type: multipart/mixed; boundary=outer"],
      `--outer\r\nContent-Type: multipart/alternative; boundary=a1\r\n\r\n--a1\r\nContent-Type: text/plain\r\n\r\ninner\r\n--outer\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--outer--\r\n`,
    ),
  );
  const qp =
    "Caf=C3=A9 =E2=80=94 soft=\r\nbreak, trailing spaces   \r\n=3D equals, bad =ZZ and =4 and lower =c3=a9\r\n" +
    "tab\t\r\nsoft at end=  \r\nnext==\r\n41 =\r\n";
  add(
    "QP html",
    mail(
      [
        ...HEAD,
        "Content-Type: text/html; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
      ],
      qp,
    ),
  );
  add(
    "QP text, ends in =",
    mail(
      [
        ...HEAD,
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: Quoted-Printable",
      ],
      "line=\r\nend=",
    ),
  );
  add(
    "QP in alternative, boundary in text",
    mail(
      altHead("b1"),
      `--b1\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${qp}--b1 not a boundary=3D\r\n--b1\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>=3D=3D</p>=\r\n\r\n--b1--\r\n`,
    ),
  );
  add(
    "QP latin1",
    mail(
      [
        ...HEAD,
        "Content-Type: text/plain; charset=ISO-8859-1",
        "Content-Transfer-Encoding: quoted-printable",
      ],
      "Caf=E9 =80 =81 =9D \r\n",
    ),
  );
  const b64html = Buffer.from(HTML).toString("base64");
  add(
    "base64 html, 76-col",
    mail(
      [...HEAD, "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: base64"],
      wrap76(b64html),
    ),
  );
  add(
    "base64 html, one line, no newline",
    mail(
      [...HEAD, "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: base64"],
      b64html,
    ),
  );
  add(
    "base64 in alternative",
    mail(
      altHead("b1"),
      `--b1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${wrap76(Buffer.from(`${TEXT}x`).toString("base64"))}\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: BASE64\r\n\r\n${wrap76(b64html)}--b1--\r\n`,
    ),
  );
  add(
    "base64 with padding in the middle",
    mail(
      [...HEAD, "Content-Type: text/plain", "Content-Transfer-Encoding: base64"],
      "QQ==\r\nQkM=\r\n",
    ),
  );
  const high = Array.from({ length: 128 }, (_, i) => String.fromCharCode(128 + i)).join("");
  for (const cs of [
    "iso-8859-1",
    "ISO-8859-1",
    "latin1",
    "windows-1252",
    "us-ascii",
    "cp1252",
    "utf-8",
    "utf8",
    "UTF8",
    "iso-8859-2",
    "unicode-1-1-utf-8",
    "koi8-r",
  ]) {
    add(
      `8bit ${cs}`,
      mail(
        [...HEAD, `Content-Type: text/plain; charset=${cs}`, "Content-Transfer-Encoding: 8bit"],
        latin(`A ${high} \r\nB\r\n`),
      ),
    );
  }
  add(
    "utf-8 body, BOM, invalid bytes",
    mail(
      [...HEAD, "Content-Type: text/html; charset=utf-8"],
      cat(
        "\ufeff<p>ok \u00e9</p>",
        new Uint8Array([0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x0d, 0x0a]),
      ),
    ),
  );
  const subjects = [
    "=?UTF-8?B?U2hpcHBlZDogIkNhZsOpIiDigJQgMSBpdGVt?=",
    "=?utf-8?Q?Delivered:_=22Caf=C3=A9=22?= and more",
    "=?ISO-8859-1?Q?Caf=E9?= =?ISO-8859-1?Q?_cr=E8me?=",
    "=?UTF-8?B?4oCU?= =?UTF-8?B?4oC=?= =?UTF-8?B?lA==?=",
    "=?UTF-8?B?w6k=?=\r\n =?UTF-8?Q?_=C3=A9?=",
    "Your order =?us-ascii?Q?is_here?=",
    "=?windows-1252?Q?=93quoted=94?=",
    "=?koi8-r?B?9MXT1A==?=",
    "=?utf-8?q?broken",
    "plain subject with =? inside",
    "  spaced   subject  ",
    "Folded\r\n subject\r\n\tline",
    "Caf\u00e9 raw utf-8",
    "",
  ];
  for (const s of subjects)
    add(
      `subject ${JSON.stringify(s)}`,
      mail(
        [
          ...HEAD.filter((h) => !h.startsWith("Subject")),
          `Subject: ${s}`,
          "Content-Type: text/plain",
        ],
        TEXT,
      ),
    );
  const froms = [
    "shipment-tracking@amazon.com",
    "<auto-confirm@amazon.com>",
    "Amazon.com <auto-confirm@amazon.com>",
    '"Amazon.com" <Auto-Confirm@Amazon.COM>',
    '"" <a@amazon.com>',
    '"a@amazon.com" <a@amazon.com>',
    "=?UTF-8?B?QW1hem9uLmNvbQ==?= <a@amazon.com>",
    '"=?UTF-8?Q?Amazon_=E2=80=94?=" <a@amazon.com>',
    '"Doe, Jane" <jane@x.com>',
    "Doe, Jane <jane@x.com>",
    "jane@x.com (Jane)",
    "Undisclosed:;",
    "a@xn--bcher-kva.de",
    "  Amazon   Web  Services\t<aws@amazon.com>",
    '"Amazon"<a@amazon.com>',
    "",
  ];
  for (const f of froms)
    add(
      `from ${JSON.stringify(f)}`,
      mail(
        [...HEAD.filter((h) => !h.startsWith("From")), `From: ${f}`, "Content-Type: text/plain"],
        TEXT,
      ),
    );
  add(
    "folded From",
    mail(
      [...HEAD.filter((h) => !h.startsWith("From")), 'From: "Amazon.com"\r\n <a@amazon.com>'],
      TEXT,
    ),
  );
  for (const d of [
    "Tue, 14 Jan 2025 15:04:05 +0000 (UTC)",
    "14 Jan 2025 15:04:05 GMT",
    "2025-01-14T15:04:05Z",
    "not a date",
    "",
    "Tue, 14 Jan 2025 15:04:05 -0800",
  ]) {
    add(
      `date ${JSON.stringify(d)}`,
      mail([...HEAD.filter((h) => !h.startsWith("Date")), `Date: ${d}`], TEXT),
    );
  }
  for (const id of ["abc@x", "<abc@x>", "<<abc@x>>", "  <abc@x>  ", "", "=?utf-8?B?YWJjQHg=?="]) {
    add(
      `message-id ${JSON.stringify(id)}`,
      mail([...HEAD.filter((h) => !h.startsWith("Message-ID")), `Message-ID: ${id}`], TEXT),
    );
  }
  add("no Message-ID, no Date, no From", mail(["Subject: bare", "Content-Type: text/plain"], TEXT));
  add("duplicate Subject", mail([...HEAD, "Subject: second"], TEXT));
  add(
    "duplicate Content-Type",
    mail([...HEAD, "Content-Type: text/plain", "Content-Type: text/html"], TEXT),
  );
  add("headers only, no blank line", bytes(`${HEAD.join("\r\n")}\r\n`));
  add("headers only, no newline", bytes(HEAD.join("\r\n")));
  add("empty body", bytes(`${HEAD.join("\r\n")}\r\n\r\n`));
  add("LF headers, CRLF body", cat(`${HEAD.join("\n").replace(/\r\n/g, "\n")}\n\n`, TEXT));
  add("mbox From line", cat("From MAILER-DAEMON Tue Jan 14 15:04:05 2025\r\n", mail(HEAD, TEXT)));
  add(
    "header without colon and odd names",
    mail(["Bogus line", ...HEAD, "X-Empty:", "X-Sp ace: v", ": novalue"], TEXT),
  );
  add(
    "8bit header bytes",
    mail(
      [
        ...HEAD.filter((h) => !h.startsWith("Subject")),
        "Subject: Caf\u00e9 \u2014",
        "X-Latin: caf\u00e9",
      ],
      TEXT,
    ),
  );
  add(
    "format=flowed",
    mail([...HEAD, "Content-Type: text/plain; format=flowed"], "flowed \r\ntext\r\n"),
  );
  add(
    "message/rfc822",
    mail(
      [...HEAD, "Content-Type: multipart/mixed; boundary=m1"],
      `--m1\r\nContent-Type: text/plain\r\n\r\nhi\r\n--m1\r\nContent-Type: message/rfc822\r\n\r\n${HEAD.join("\r\n")}\r\n\r\ninner\r\n--m1--\r\n`,
    ),
  );
  add(
    "uuencode",
    mail(
      [...HEAD, "Content-Type: text/plain", "Content-Transfer-Encoding: x-uuencode"],
      "begin 644 a\r\n`\r\nend\r\n",
    ),
  );
  add(
    "part headers without body at end",
    mail(
      altHead("b1"),
      "--b1\r\nContent-Type: text/plain\r\n\r\nx\r\n--b1\r\nContent-Type: text/html\r\n",
    ),
  );
  add(
    "part closed in its headers",
    mail(
      altHead("b1"),
      "--b1\r\nContent-Type: text/plain\r\n--b1\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--b1--\r\n",
    ),
  );
  add("multipart without boundary", mail([...HEAD, "Content-Type: multipart/mixed"], TEXT));
  add(
    "boundary with special chars",
    mail(
      [...HEAD, `Content-Type: multipart/alternative;\r\n boundary="----=_Part_123_456.789"`],
      alt("----=_Part_123_456.789"),
    ),
  );
  add("part with empty header block", mail(altHead("b1"), `--b1\r\n\r\n${TEXT}\r\n--b1--\r\n`));
  add(
    "content-type upper case with comment-free params",
    mail([...HEAD, 'Content-Type: TEXT/HTML; Charset="UTF-8"; format=fixed'], HTML),
  );
  add(
    "delivery-status",
    mail(
      [...HEAD, "Content-Type: multipart/report; boundary=r"],
      "--r\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--r\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.0.0\r\n--r--\r\n",
    ),
  );
  return out;
}

const cases = shapes();

// --- fuzzer ----------------------------------------------------------------------------------

const TOKENS = [
  "\r\n",
  "\n",
  "\r",
  "--",
  "=",
  "=\r\n",
  "=3D",
  " ",
  "\t",
  '"',
  "<",
  ">",
  ":",
  ";",
  "--b1",
  "--b1--",
  "--m1\r\n",
  "--a1--\r\n",
  "=?utf-8?B?",
  "?=",
  "\r\n\r\n",
  "\x00",
  "\xff",
  "Content-Type: text/html\r\n",
  "boundary=",
  "charset=latin1",
];

function mutate(src: Uint8Array, r: () => number): Uint8Array {
  let b = Buffer.from(src);
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    const op = Math.floor(r() * 6);
    const at = Math.floor(r() * (b.length + 1));
    if (op === 0 && b.length) b[Math.min(at, b.length - 1)] = Math.floor(r() * 256);
    else if (op === 1) {
      const t = Buffer.from(TOKENS[Math.floor(r() * TOKENS.length)]!, "latin1");
      b = Buffer.concat([b.subarray(0, at), t, b.subarray(at)]);
    } else if (op === 2)
      b = Buffer.concat([
        b.subarray(0, at),
        b.subarray(Math.min(b.length, at + 1 + Math.floor(r() * 8))),
      ]);
    else {
      // line-level: duplicate or remove a line (headers and boundaries among them)
      const lines = b.toString("latin1").split(/(?<=\n)/);
      const i = Math.floor(r() * lines.length);
      if (op === 3) lines.splice(i, 0, lines[i] ?? "");
      else if (op === 4) lines.splice(i, 1);
      else {
        const j = Math.floor(r() * lines.length);
        const t = lines[i]!;
        lines[i] = lines[j]!;
        lines[j] = t;
      }
      b = Buffer.from(lines.join(""), "latin1");
    }
  }
  return new Uint8Array(b);
}

// --- tests -----------------------------------------------------------------------------------

describe("fastParse = mailparser", () => {
  test("the team's builders take the fast path and agree", async () => {
    const raws = [
      amazonMail({
        kind: "ordered",
        items: [{ name: "Widget", asin: "B000000001", price: "0.00" }],
        total: "0.00",
      }),
      amazonMail({ kind: "shipped", tracking: "TBA123", carrier: "Amazon", padding: 20_000 }),
      amazonMail({ kind: "delivered", messageId: null, auth: null }),
      amazonMail({
        kind: "canceled",
        items: [{ name: 'A "quoted" & <b>', asin: null, price: "1.00" }],
      }),
      amazonMail({ kind: "other", extraHeaders: ["X-Test: 1", "Received: from a\r\n\tby b"] }),
      amazonMail({
        kind: "delayed",
        date: "Wed, 15 Jan 2025 09:00:00 -0800",
        from: "order-update@amazon.co.uk",
      }),
      amazonMail({
        kind: "out-for-delivery",
        items: [{ name: "X".repeat(40), asin: "B0X", price: "2.00" }],
      }),
    ];
    for (const raw of raws) {
      expect(await expectSame(bytes(raw))).toBe(true);
      expect(await expectSame(bytes(raw.replace(/\r\n/g, "\n")))).toBe(true);
    }
    for (const raw of [
      plainMail({ from: "a@b.com", subject: "hi" }),
      plainMail({ from: "x@y.org", subject: "Caf\u00e9", messageId: null, body: "a\nb\n" }),
    ]) {
      expect(await expectSame(bytes(raw))).toBe(true);
    }
  });

  test("parseMail takes the fast path for strings and bytes alike", async () => {
    const raw = amazonMail({ kind: "shipped", tracking: "TBA1", padding: 5000 });
    expect(await parseMail(raw)).toEqual(await parseWithMailparser(raw));
    expect(await parseMail(bytes(raw))).toEqual(await parseWithMailparser(bytes(raw)));
    const declined = "Subject: a\r\nSubject: b\r\n\r\nbody\r\n";
    expect(fastParse(bytes(declined))).toBeNull();
    expect(await parseMail(declined)).toEqual(await parseWithMailparser(declined));
  });

  test("fixtures in test/fixtures/mail", async () => {
    let fast = 0;
    const files = emlFiles(FIXTURES);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const { fast: took, diff } = await differ(new Uint8Array(fs.readFileSync(f)));
      if (diff) throw new Error(`${path.basename(f)}\n${diff}`);
      if (took) fast++;
    }
    console.log(`fixtures: ${fast}/${files.length} on the fast path`);
  });

  test.skipIf(!fs.existsSync(CORPUS))("the public corpus", async () => {
    const files = emlFiles(CORPUS);
    let fast = 0;
    const declined: string[] = [];
    for (const f of files) {
      const { fast: took, diff } = await differ(new Uint8Array(fs.readFileSync(f)));
      if (diff) throw new Error(`${path.relative(CORPUS, f)}\n${diff}`);
      if (took) fast++;
      else declined.push(path.relative(CORPUS, f));
    }
    console.log(
      `corpus: ${fast}/${files.length} on the fast path; declined: ${declined.join(", ")}`,
    );
    expect(fast).toBeGreaterThan(files.length / 2);
  });

  test("generated shapes", async () => {
    const declined: string[] = [];
    for (const [name, raw] of cases) {
      const { fast, diff } = await differ(raw);
      if (diff) throw new Error(`${name}\n${diff}`);
      if (!fast) declined.push(name);
    }
    console.log(
      `shapes: ${cases.length - declined.length}/${cases.length} fast; declined: ${declined.join(" | ")}`,
    );
    for (const must of [
      "alternative",
      "alternative LF",
      "mixed with attachment",
      "related with inline image",
      "nested mixed > related > alternative",
      "QP html",
      "base64 html, 76-col",
      "8bit iso-8859-1",
      "8bit windows-1252",
      "8bit utf-8",
      "alternative, missing final boundary",
    ]) {
      expect(declined).not.toContain(must);
    }
  });

  test("charset tables match iconv-lite", async () => {
    const all = new Uint8Array(256).map((_, i) => i);
    for (const cs of ["iso-8859-1", "windows-1252"]) {
      const raw = mail(
        [`Content-Type: text/plain; charset=${cs}`, "Content-Transfer-Encoding: binary"],
        all.filter((c) => c !== 10 && c !== 13),
      );
      const m = fastParse(raw);
      expect(m?.text).toBe(
        iconv.decode(Buffer.from(all.filter((c) => c !== 10 && c !== 13)), "windows-1252"),
      );
    }
  });

  test("seeded fuzzer: never throws; declines or equals mailparser", async () => {
    // MIME_FUZZ_SEED / MIME_FUZZ_N: other seeds and more mutations for a longer hunt
    const r = prng(Number(process.env.MIME_FUZZ_SEED ?? 20250114));
    const named = (n: string) => cases.find(([name]) => name === n)![1];
    const lastBlank = mail(
      [...HEAD, "Content-Type: multipart/alternative; boundary=b1"],
      "--b1\r\nContent-Type: text/plain\r\n\r\nA\r\n\r\n--b1\r\nContent-Type: text/html; charset=latin1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>=E9</p>\r\n\r\n\r\n--b1--",
    );
    const bases = [
      named("mixed with attachment"),
      named("QP in alternative, boundary in text"),
      lastBlank,
      named("nested, inner never closed"),
      named("related with inline image"),
      named("alternative LF"),
      named("base64 in alternative"),
      named("mixed, text and html inline (not alternative)"),
      named('subject "=?UTF-8?B?4oCU?= =?UTF-8?B?4oC=?= =?UTF-8?B?lA==?="'),
      cases.find(([n]) => n.startsWith("from") && n.includes("Amazon_=E2"))![1],
      bytes(
        amazonMail({
          kind: "shipped",
          tracking: "TBA9",
          items: [{ name: "Caf\u00e9", asin: "B01", price: "0.00" }],
        }),
      ),
    ];
    const inputs: Uint8Array[] = [];
    // truncation at every position of the first three
    for (const base of bases.slice(0, 3))
      for (let i = 0; i < base.length; i++) inputs.push(base.subarray(0, i));
    for (let k = 0, n = Number(process.env.MIME_FUZZ_N ?? 8000); k < n; k++)
      inputs.push(mutate(bases[k % bases.length]!, r));
    let fast = 0;
    const diffs: string[] = [];
    for (const raw of inputs) {
      const res = await differ(raw);
      if (res.fast) fast++;
      if (res.diff && diffs.length < 3)
        diffs.push(`${JSON.stringify(Buffer.from(raw).toString("latin1"))}\n${res.diff}`);
    }
    console.log(`fuzz: ${inputs.length} inputs, ${fast} on the fast path`);
    expect(diffs).toEqual([]);
  }, 120_000);

  test("hostile sizes (4 MB of one pattern) are read or declined, never thrown", () => {
    const big = (s: string, n: number) => s.repeat(Math.ceil(n / s.length));
    const inputs = [
      bytes(big("\n", 4e6)),
      bytes(`Content-Type: multipart/mixed; boundary=b\r\n\r\n${big("--b\r\n\r\n", 4e6)}`),
      bytes(`Subject: ${big("=?=?", 2e5)}\r\n\r\nx`),
      bytes(
        `Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${big("=  =\r\n= \t", 4e6)}`,
      ),
      bytes(
        `Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n${big("QUJD\r\n", 4e6)}`,
      ),
      bytes(`X: ${big("a", 4e6)}`),
      bytes(
        `Content-Type: multipart/mixed; boundary=b\r\n\r\n${big("--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n", 4e6)}`,
      ),
    ];
    // Each is read to its end or declined, never thrown; how long it takes is bench/mime.bench.ts's
    // business (tests never judge time).
    for (const raw of inputs) {
      const r = fastParse(raw);
      expect(r === null || typeof r.subject === "string").toBe(true);
    }
  });
});
