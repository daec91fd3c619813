/**
 * The libraries most users never need load with their first use, not at start: each costs
 * megabytes of resident memory for as long as the server runs (bench/startup.bench.ts prints what
 * each costs). A fresh bun builds what src/boot.ts builds (test/support/boot-modules.ts) and this
 * checks none of them was loaded; their own tests (tracking, alerts, Vine report, uploads, the
 * mail pipeline) check that they still work when used.
 */
import { afterAll, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Encoding from "encoding-japanese";
import iconv from "iconv-lite";
import {
  buildLazyLibraries,
  LAZY_LIBRARIES,
  SERVER_BUILD_OPTIONS,
  SERVER_ENTRY,
} from "../scripts/build-server.ts";
import { freePort, startApp } from "./support/app-process.ts";
import { startDovecot } from "./support/dovecot.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-lazy-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Runs a script with Bun in a clean environment; its standard output, once it exited 0 quietly. */
async function runScript(args: string[], env: Record<string, string>): Promise<string> {
  const proc = Bun.spawn([process.execPath, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect(err).toBe("");
  expect(code).toBe(0);
  return out;
}

/** Loaded with the first use of what needs them. */
const LAZY = [
  "node_modules/chrono-node/",
  "node_modules/htmlparser2/",
  "node_modules/@internationalized/number/",
  "node_modules/ts-tracking-number/",
  "node_modules/ramda/",
  "node_modules/web-push/",
  "node_modules/csv-parse/",
  "node_modules/fflate/",
  "node_modules/@fastify/busboy/",
  "node_modules/openai/",
  "node_modules/mailparser/",
  "node_modules/@lingui/core/",
  "node_modules/@lingui/message-utils/",
  "node_modules/imapflow/",
  "src/mail/amazon/reader.ts",
  // The server's words (notifications, alerts, error sentences): with the first message translated.
  "node_modules/@lingui/",
  "src/i18n/catalog.ts",
  // The request schemas and the full zod build (config.ts reads the environment with zod/mini):
  // with the first request to a route group that has schemas (src/http/lazy-routes.ts).
  "node_modules/zod/v4/classic/",
  "src/contract/fields.ts",
  "src/contract/orders.ts",
  "src/contract/user.ts",
  "src/http/routes/auth.routes.ts",
  "src/http/routes/user.routes.ts",
  "src/http/routes/orders.routes.ts",
  "src/http/routes/vine.routes.ts",
  "src/http/routes/review-media.routes.ts",
];

/**
 * Node's modules loaded with their first use (an alert sent, an address checked, a mailbox
 * connected). Bun lists no built-in module in require.cache, so the check is on the source: no
 * module the server loads at start imports one of them as a value.
 */
const LAZY_BUILTINS = ["node:http", "node:https", "node:dns", "node:net"];
const valueImport = (spec: string) =>
  new RegExp(`^import\\s+(?!type\\b)[^;]*?\\sfrom\\s+"${spec}";`, "m");

test("building the server loads none of the libraries that wait for their first use", async () => {
  const out = await runScript(["test/support/boot-modules.ts"], { DATA_DIR: dataDir });
  const loaded = JSON.parse(out) as string[];
  // The app itself was built (the check would pass on an empty list).
  expect(loaded.some((f) => f.endsWith("src/http/app.ts"))).toBe(true);
  expect(loaded.some((f) => f.endsWith("src/features/alerts/alerts.service.ts"))).toBe(true);
  const eager = loaded.filter((f) => LAZY.some((l) => f.includes(l)));
  expect(eager).toEqual([]);
  const importers = loaded
    .filter((f) => f.startsWith(path.join(ROOT, "src")))
    .flatMap((f) => {
      const text = fs.readFileSync(f, "utf8");
      return LAZY_BUILTINS.filter((b) => valueImport(b).test(text)).map((b) => `${b} in ${f}`);
    });
  expect(importers).toEqual([]);
});

/**
 * A real Amazon.co.jp shipping mail's first lines (cho45/gmailtozaim@58bfa62050eaa4c446d313aa905124fee1514236,
 * t/amazon.t, the first input block; the order number is that sample's), sent in the two charsets
 * Japanese mail comes in: ISO-2022-JP (decoded by encoding-japanese) and Shift_JIS (iconv-lite).
 */
const JP_SUBJECT = "Amazon.co.jp　ご注文の発送";
const JP_BODY =
  "Amazon.co.jp　ご注文の発送\r\n注文番号 999-9999999-9999999\r\n\r\nAmazon.co.jp をご利用いただき、ありがとうございます。\r\n";

function japaneseMail(charset: "ISO-2022-JP" | "Shift_JIS"): Buffer {
  const encode = (text: string): Buffer =>
    charset === "ISO-2022-JP"
      ? Buffer.from(
          Encoding.convert(Encoding.stringToCode(text), { to: "JIS", from: "UNICODE" }) as number[],
        )
      : iconv.encode(text, "Shift_JIS");
  const head = [
    "From: shipment-tracking@amazon.co.jp",
    "To: alice@example.test",
    `Subject: =?${charset}?B?${encode(JP_SUBJECT).toString("base64")}?=`,
    "Date: Sat, 01 Jun 2013 10:00:00 +0900",
    `Message-ID: <jp-${charset}@example.test>`,
    "MIME-Version: 1.0",
    `Content-Type: text/plain; charset=${charset}`,
    "Content-Transfer-Encoding: base64",
  ].join("\r\n");
  return Buffer.concat([
    Buffer.from(`${head}\r\n\r\n`),
    Buffer.from(`${encode(JP_BODY).toString("base64")}\r\n`),
  ]);
}

test("in the server bundle, a mailbox connects without COMPRESS (node:zlib), imapflow's SOCKS client and charset decoders, and each loads when a message, a proxy or compression needs it", async () => {
  // Dovecot offers COMPRESS=DEFLATE, as Gmail does.
  const dc = await startDovecot({
    users: [{ user: "alice@example.test", pass: "app-pass-1" }],
    compress: true,
  });
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-standins-"));
  try {
    await dc.append("alice@example.test", japaneseMail("ISO-2022-JP"));
    await dc.append("alice@example.test", japaneseMail("Shift_JIS"));
    const built = await Bun.build({
      entrypoints: [path.join(ROOT, "test/support/imap-charsets.ts")],
      outdir,
      ...SERVER_BUILD_OPTIONS,
    });
    const lazy = await buildLazyLibraries(outdir);
    expect(built.success && lazy.success).toBe(true);
    const out = await runScript([path.join(outdir, "imap-charsets.js")], {
      IMAP_PORT: String(dc.port),
      IMAP_USER: "alice@example.test",
      IMAP_PASS: "app-pass-1",
      NO_PROXY_PORT: String(freePort()),
    });
    const r = JSON.parse(out) as {
      compressOffered: boolean;
      connectionCompressed: boolean;
      afterConnect: string[];
      messages: Array<{ subject: string; body: string }>;
      afterDecode: string[];
      whenAllowed: { compressed: boolean; subjects: string[] };
      afterCompress: string[];
      proxyError: string;
      afterProxy: string[];
    };
    expect(r.compressOffered).toBe(true);
    expect(r.connectionCompressed).toBe(false);
    expect(r.afterConnect).toEqual([]);
    expect(r.messages).toEqual([
      { subject: JP_SUBJECT, body: JP_BODY },
      { subject: JP_SUBJECT, body: JP_BODY },
    ]);
    expect(r.afterDecode.sort()).toEqual([
      "./download.js",
      "encoding-japanese",
      "iconv-lite",
      "libmime",
    ]);
    // Allowed to, imapflow compresses through the real node:zlib, and reads the same messages.
    expect(r.whenAllowed).toEqual({ compressed: true, subjects: [JP_SUBJECT, JP_SUBJECT] });
    expect(r.afterCompress).toContain("node:zlib");
    // The real SOCKS client tried the proxy (nothing listens there).
    expect(r.proxyError).toMatch(/^Failed to establish a socket via SOCKS proxy: .*ECONNREFUSED/);
    expect(r.afterProxy).toContain("socks");
  } finally {
    await dc.stop();
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}, 60_000);

test("the server bundle reads the message catalogs from files beside it, not from its code", async () => {
  const app = await startApp({ DATA_DIR: fs.mkdtempSync(path.join(dataDir, "bundle-")) });
  try {
    const res = await app.call("POST", "/api/auth/login", {
      body: { email: "nobody@example.test", password: "wrong-password-1" },
    });
    expect(res.status).toBe(401);
    // The sentence comes from locales/en.json, read from the bundle's copy.
    expect(res.body.error).toBe("Incorrect email or password");
  } finally {
    app.proc.kill("SIGTERM");
    await app.exited;
  }
  const files = fs.readdirSync(path.dirname(SERVER_ENTRY));
  for (const language of ["en", "de", "fr", "es", "it", "ja"]) {
    expect(files.some((f) => f.startsWith(`${language}-`) && f.endsWith(".json"))).toBe(true);
  }
  const code = files.filter((f) => f.endsWith(".js"));
  expect(code.length).toBeGreaterThan(0);
  const withCatalog = code.filter((f) =>
    fs
      .readFileSync(path.join(path.dirname(SERVER_ENTRY), f), "utf8")
      .includes('"error.sign_in_wrong"'),
  );
  expect(withCatalog).toEqual([]);
});

test("the server bundle starts without reading the libraries it keeps in files of their own", async () => {
  // One level below the repository, as dist-server/, so config.ts finds the migrations.
  const outdir = fs.mkdtempSync(path.join(ROOT, ".boot-bundle-"));
  try {
    const built = await Bun.build({
      entrypoints: [path.join(ROOT, "test/support/boot-modules.ts")],
      outdir,
      ...SERVER_BUILD_OPTIONS,
    });
    const lazy = await buildLazyLibraries(outdir);
    expect(built.success && lazy.success).toBe(true);
    expect(fs.readdirSync(path.join(outdir, "lazy")).length).toBe(LAZY_LIBRARIES.length);
    const out = await runScript([path.join(outdir, "boot-modules.js"), "--then-detect"], {
      DATA_DIR: dataDir,
    });
    const [loaded = [], afterDetect = []] = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as string[]);
    // The bundle's chunks are listed (the check would pass on an empty list).
    expect(loaded.filter((f) => f.startsWith(path.join(outdir, "chunk-"))).length).toBeGreaterThan(
      0,
    );
    expect(loaded.filter((f) => f.startsWith(path.join(outdir, "lazy")))).toEqual([]);
    // The first tracking number detected reads its library from its file.
    expect(afterDetect).toContain(path.join(outdir, "lazy", "ts-tracking-number.js"));
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});
