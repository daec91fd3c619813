/**
 * The lean MIME reader (src/mail/mime.ts) beside mailparser (not a test):
 *
 *   bun run bench/mime.bench.ts              (5,000 Amazon messages, 5 passes each)
 *   bun run bench/mime.bench.ts --messages 1000 --passes 5
 *
 * Builds N Amazon messages with test/api/mail-messages.ts the way bench/backfill.bench.ts does
 * (order confirmations, shipped and delivered mail in groups of 3 + 1 + 1, distinct order
 * numbers and Message-IDs, 8–40 KB of padding, CRLF), then parses all of them, one after the
 * other, with: mailparser's simpleParser through parse.ts's mailparser path (the server's
 * options), fastParse alone, and parseMail (fast path, mailparser when it declines), passes
 * interleaved. Prints ms per pass (median of the passes), messages/s, µs per message and the share of messages that
 * took the fast path. Targets: fastParse ≥ 4x mailparser; 100 % fast path on these messages.
 * Figures go to bench/out/mime.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fastParse } from "../src/mail/mime.ts";
import { parseMail, parseWithMailparser } from "../src/mail/parse.ts";
import { prng } from "../test/support/prng.ts";
import { benchAmazonMail } from "./support/amazon-mail.ts";
import { intArg } from "./support/bench-utils.ts";

const N = intArg("--messages", 5000, 1);
const PASSES = intArg("--passes", 5, 1);
const SPEEDUP_TARGET = 4;
const ROOT = path.resolve(import.meta.dir, "..");

function build(n: number): Buffer[] {
  const rand = prng(42);
  const start = Date.UTC(2025, 0, 1);
  return Array.from(
    { length: n },
    (_, a) => benchAmazonMail(a, new Date(start + Math.floor(rand() * 170 * 86_400_000)), rand).raw,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const messages = build(N);
const bytes = messages.reduce((s, m) => s + m.length, 0);
console.log(
  `mime.bench: ${N} Amazon messages, ${(bytes / 1024 / 1024).toFixed(1)} MB (avg ${(bytes / N / 1024).toFixed(1)} KB), ${PASSES} passes`,
);
console.log(
  `machine: ${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, bun ${Bun.version}`,
);

let fast = 0;
for (const m of messages) if (fastParse(m)) fast++;

// warm-up (JIT, the lazy mailparser import)
for (const m of messages.slice(0, 200)) {
  fastParse(m);
  await parseWithMailparser(m);
}

// passes interleaved (mailparser, fastParse, parseMail, mailparser, ...) so that other load on
// the machine falls on all three alike; the median pass counts
const runs: Array<{ name: string; run: () => Promise<void> | void; times: number[] }> = [
  {
    name: "mailparser (server options)",
    run: async () => {
      for (const m of messages) await parseWithMailparser(m);
    },
    times: [],
  },
  {
    name: "fastParse",
    run: () => {
      for (const m of messages) fastParse(m);
    },
    times: [],
  },
  {
    name: "parseMail",
    run: async () => {
      for (const m of messages) await parseMail(m);
    },
    times: [],
  },
];
for (let p = 0; p < PASSES; p++) {
  for (const r of runs) {
    Bun.gc(true);
    const t = performance.now();
    await r.run();
    r.times.push(performance.now() - t);
  }
}
const rows = runs.map((r) => ({ name: r.name, ms: median(r.times) }));

const base = rows[0]!.ms;
console.log("");
console.log("| parser | ms per pass | messages/s | µs per message | vs mailparser |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.ms.toFixed(0)} | ${Math.round((N / r.ms) * 1000)} | ${((r.ms * 1000) / N).toFixed(1)} | ${(base / r.ms).toFixed(1)}x |`,
  );
}
const speedup = base / rows[1]!.ms;
const share = fast / N;
console.log("");
console.log(
  `fast path: ${fast}/${N} (${(share * 100).toFixed(1)} %)  ${share === 1 ? "PASS" : "MISS"} (target 100 %)`,
);
console.log(
  `fastParse speed-up: ${speedup.toFixed(1)}x  ${speedup >= SPEEDUP_TARGET ? "PASS" : "MISS"} (target >= ${SPEEDUP_TARGET}x)`,
);

fs.mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, "bench", "out", "mime.json"),
  `${JSON.stringify({ messages: N, passes: PASSES, bytes, fastShare: share, speedup, rows }, null, 2)}\n`,
);
