/**
 * What each module costs in resident memory: imported alone into a fresh bun
 * (bench/support/module-rss.ts), minus a bare bun, median of a few runs. Modules share what they
 * load (Node's streams, zlib, the CommonJS loader), so the figures overlap and do not add up to
 * the server's; they say what loading one costs on its own.
 */
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "../..");
const SCRIPT = path.join(import.meta.dir, "module-rss.ts");

/** When the server loads each one: at start, or with the first use of what needs it. */
export const MODULES: Array<{ spec: string; when: string }> = [
  { spec: "hono", when: "start" },
  { spec: "drizzle-orm", when: "start" },
  { spec: "zod", when: "start" },
  { spec: "./src/contract/index.ts", when: "start (zod + the API schemas)" },
  { spec: "pino", when: "start" },
  { spec: "croner", when: "start" },
  { spec: "ipaddr.js", when: "start" },
  { spec: "imapflow", when: "a connected mailbox" },
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
  { spec: "./src/http/app.ts", when: "start (the HTTP app and its routes)" },
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
export function measureModuleCosts(bun: string, runs = 3): { bare: Sample; costs: ModuleCost[] } {
  const bare = medianSample(bun, null, runs);
  const costs = MODULES.map(({ spec, when }) => {
    const s = medianSample(bun, spec, runs);
    return {
      spec,
      when,
      rssKb: s.rssKb - bare.rssKb,
      anonKb: s.anonKb - bare.anonKb,
      fileKb: s.fileKb - bare.fileKb,
      modules: s.modules,
    };
  });
  return { bare, costs };
}
