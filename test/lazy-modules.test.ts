/**
 * The libraries most users never need load with their first use, not at start: each costs
 * megabytes of resident memory for as long as the server runs (bench/startup.bench.ts prints what
 * each costs). A fresh bun builds what src/main.ts builds (test/support/boot-modules.ts) and this
 * checks none of them was loaded; their own tests (tracking, alerts, Vine report, uploads, the
 * mail pipeline) check that they still work when used.
 */
import { afterAll, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-lazy-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

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
  const proc = Bun.spawn([process.execPath, "test/support/boot-modules.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", DATA_DIR: dataDir },
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
