/**
 * What each module costs in resident memory: imported alone into a fresh bun
 * (bench/support/module-rss.ts), minus a bare bun, median of a few runs. Modules share what they
 * load (Node's streams, zlib, the CommonJS loader), so the figures overlap and do not add up to
 * the server's; they say what loading one costs on its own.
 *
 * By default each module is first bundled as the server is (scripts/build-server.ts: target bun,
 * whitespace and syntax minified, tree-shaken, imapflow's lazy stand-ins), so the figure is what
 * the server bundle pays;
 * `bundled: false` imports the sources (Bun transpiles them at load: dearer, and zod/mini then
 * costs what zod does).
 */
import fs from "node:fs";
import path from "node:path";
import { buildLazyLibraries, SERVER_BUILD_OPTIONS } from "../../scripts/build-server.ts";

const ROOT = path.resolve(import.meta.dir, "../..");
const SCRIPT = path.join(import.meta.dir, "module-rss.ts");

/** When the server loads each one: at start, or with the first use of what needs it. */
export const MODULES: Array<{ spec: string; when: string }> = [
  { spec: "hono", when: "start" },
  { spec: "drizzle-orm", when: "start" },
  { spec: "zod/mini", when: "start (config.ts reads the environment with it)" },
  { spec: "./src/config.ts", when: "start (the environment read with zod/mini)" },
  { spec: "zod", when: "the first request to a route group with request schemas" },
  {
    spec: "./src/contract/index.ts",
    when: "(zod + every request schema; each group loads its own)",
  },
  { spec: "pino", when: "start" },
  { spec: "./src/log.ts", when: "start (pino to stdout and the daily file)" },
  {
    spec: "./src/db/client.ts",
    when: "start (bun:sqlite, drizzle, the migrator when one is pending)",
  },
  { spec: "croner", when: "start" },
  { spec: "ipaddr.js", when: "start" },
  { spec: "node:crypto", when: "start (secrets, tokens)" },
  { spec: "node:http", when: "the first alert sent (outgoing.ts)" },
  { spec: "node:https", when: "the first alert sent (outgoing.ts)" },
  { spec: "@lingui/core", when: "the first message translated (src/i18n/translate.ts)" },
  { spec: "./src/i18n/translate.ts", when: "start (Lingui and the catalogs on first use)" },
  { spec: "imapflow", when: "a connected mailbox" },
  { spec: "node:tls", when: "a connected mailbox (imapflow; Gmail is TLS)" },
  {
    spec: "node:zlib",
    when: "never by a mailbox (COMPRESS=DEFLATE is off; imapflow's stand-in)",
  },
  { spec: "node:net", when: "a connected mailbox (imapflow)" },
  {
    spec: "@zone-eu/mailsplit",
    when: "imapflow's download(), never called (its stand-in; mailparser has its own)",
  },
  { spec: "socks", when: "a connection through a proxy (imapflow; scripts/lazy-stand-ins.ts)" },
  { spec: "libmime", when: "the first message read (mailparser; imapflow's stand-in)" },
  { spec: "iconv-lite", when: "the first message read (mailparser; imapflow's stand-in)" },
  { spec: "encoding-japanese", when: "the first message read (mailparser; imapflow's stand-in)" },
  { spec: "mailparser", when: "the first message read" },
  { spec: "./src/mail/amazon/reader.ts", when: "the first message read" },
  { spec: "chrono-node", when: "the first message read (reader)" },
  { spec: "htmlparser2", when: "the first message read, the first .xlsx report" },
  { spec: "@internationalized/number", when: "the first message read (reader)" },
  { spec: "ts-tracking-number", when: "the first tracking number checked" },
  { spec: "web-push", when: "the first Web Push key or message" },
  { spec: "openai", when: "the first AI enhance" },
  { spec: "csv-parse/sync", when: "the first CSV report" },
  { spec: "fflate", when: "the first .xlsx report" },
  { spec: "@fastify/busboy", when: "the first upload" },
  { spec: "./src/services.ts", when: "start (every service, as built today)" },
  { spec: "./src/http/app.ts", when: "start (the HTTP app; groups with schemas on first use)" },
];

export type ModuleCost = {
  spec: string;
  when: string;
  rssKb: number;
  anonKb: number;
  fileKb: number;
  modules: number;
};

type Sample = { rssKb: number; anonKb: number; fileKb: number; modules: number };

/** The module bundled alone, as the server bundle carries it; the path of the built file. */
async function bundle(spec: string | null, dir: string): Promise<string> {
  const name = (spec ?? "bare").replace(/[^a-z0-9]+/gi, "_");
  const entry = path.join(dir, `${name}.entry.ts`);
  const target = spec?.startsWith("./") ? path.join(ROOT, spec) : spec;
  fs.writeFileSync(
    entry,
    target ? `import * as M from ${JSON.stringify(target)};\n(globalThis as any).__m = M;\n` : "",
  );
  const out = path.join(dir, name);
  const result = await Bun.build({
    entrypoints: [entry],
    outdir: out,
    ...SERVER_BUILD_OPTIONS,
  });
  if (!result.success) throw new Error(`bundling ${spec}: ${result.logs.join("\n")}`);
  // The libraries the server keeps in files of their own (dist-server/lazy/), built once.
  if (!fs.existsSync(path.join(dir, "lazy"))) await buildLazyLibraries(dir);
  fs.symlinkSync(path.join(dir, "lazy"), path.join(out, "lazy"));
  return path.join(out, `${name}.entry.js`);
}

function sample(bun: string, spec: string | null): Sample {
  const r = Bun.spawnSync([bun, SCRIPT, ...(spec ? [spec] : [])], { cwd: ROOT });
  if (r.exitCode !== 0) throw new Error(`importing ${spec}: ${r.stderr.toString().slice(-500)}`);
  return JSON.parse(r.stdout.toString().trim().split("\n").at(-1) ?? "{}") as Sample;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function medianSample(bun: string, spec: string | null, runs: number): Sample {
  const all = Array.from({ length: runs }, () => sample(bun, spec));
  return {
    rssKb: median(all.map((s) => s.rssKb)),
    anonKb: median(all.map((s) => s.anonKb)),
    fileKb: median(all.map((s) => s.fileKb)),
    modules: all[0]!.modules,
  };
}

/** The bare bun's figures and each module's cost over them. */
export async function measureModuleCosts(
  bun: string,
  opts: { runs?: number; bundled?: boolean } = {},
): Promise<{ bare: Sample; costs: ModuleCost[] }> {
  const runs = opts.runs ?? 3;
  // Inside the project (bench/out, ignored by git), so the entries resolve its node_modules.
  fs.mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
  const dir = fs.mkdtempSync(path.join(ROOT, "bench", "out", "modules-"));
  // The file module-rss.ts imports: the bundle of the module, or the module itself.
  const load = async (spec: string | null) =>
    opts.bundled === false || spec === null ? spec : await bundle(spec, dir);
  try {
    const bare = medianSample(bun, await load(null), runs);
    const costs: ModuleCost[] = [];
    for (const { spec, when } of MODULES) {
      const s = medianSample(bun, await load(spec), runs);
      costs.push({
        spec,
        when,
        rssKb: s.rssKb - bare.rssKb,
        anonKb: s.anonKb - bare.anonKb,
        fileKb: s.fileKb - bare.fileKb,
        modules: s.modules,
      });
    }
    return { bare, costs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
