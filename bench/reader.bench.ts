/**
 * The Amazon mail reader alone (not a test):
 *
 *   bun run bench/reader.bench.ts              (5,000 messages)
 *   bun run bench/reader.bench.ts --messages 1000 --passes 5
 *
 * Builds N bench-style Amazon messages the way bench/backfill.bench.ts seeds its maildir
 * (test/api/mail-messages.ts amazonMail: groups of 3 order confirmations, 1 shipped, 1 delivered,
 * one Vine item each, 8 KB + up to 32 KB of filler text), parses them all with parseMail first,
 * then times only readAmazonMail over the parsed messages: one warm-up pass, then P passes (default
 * 3). Prints each pass, the median in ms and µs per message, and the reader's CPU time.
 * No target (diagnosis). Figures go to bench/out/reader.json. Exits 1 only when the reader does not
 * read the messages as expected (a kind or an order number wrong).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readAmazonMail } from "../src/mail/amazon/reader.ts";
import type { MailKind, MailMessage } from "../src/mail/amazon/types.ts";
import { parseMail } from "../src/mail/parse.ts";
import { prng } from "../test/support/prng.ts";
import { benchAmazonMail } from "./support/amazon-mail.ts";
import { intArg } from "./support/bench-utils.ts";

const N = intArg("--messages", 5000, 1);
const PASSES = intArg("--passes", 3, 1);
const COMMAND = [
  "bun run bench/reader.bench.ts",
  ...(process.argv.includes("--messages") ? [`--messages ${N}`] : []),
  ...(process.argv.includes("--passes") ? [`--passes ${PASSES}`] : []),
].join(" ");

type Expected = { kind: MailKind; order: string };

function build(): { raws: Buffer[]; expected: Expected[]; bytes: number } {
  const rand = prng(20250114);
  const raws: Buffer[] = [];
  const expected: Expected[] = [];
  let bytes = 0;
  const start = Date.now() - 170 * 86_400_000;
  for (let a = 0; a < N; a++) {
    const m = benchAmazonMail(a, new Date(start + a * 60_000), rand);
    raws.push(m.raw);
    bytes += m.raw.length;
    expected.push({ kind: m.kind, order: m.order });
  }
  return { raws, expected, bytes };
}

const fmt = (n: number, d = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)] ?? 0;
};

console.log("== Amazon mail reader benchmark ==");
console.log(`command:  ${COMMAND}`);
console.log(
  `machine:  ${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, ${os.platform()} ${os.release()}, bun ${Bun.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${new Date().toISOString()}`,
);

const { raws, expected, bytes } = build();
const msgs: MailMessage[] = [];
for (const r of raws) msgs.push(await parseMail(r));
console.log(
  `setup:    ${fmt(N)} messages (3 ordered : 1 shipped : 1 delivered), ${fmt(bytes / 1024 / 1024, 1)} MB raw, parsed with parseMail (not timed)\n`,
);

// Warm-up pass, which also checks what the reader makes of them.
let wrong = 0;
for (let i = 0; i < msgs.length; i++) {
  const f = readAmazonMail(msgs[i] as MailMessage);
  const e = expected[i] as Expected;
  if (f.kind !== e.kind || f.orders[0]?.amazonordernumber !== e.order) wrong++;
}
if (wrong > 0) {
  console.error(`the reader misread ${wrong} of ${N} messages: not measuring`);
  process.exit(1);
}

const walls: number[] = [];
const cpus: number[] = [];
for (let p = 0; p < PASSES; p++) {
  Bun.gc(true);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const m of msgs) readAmazonMail(m);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1000;
  walls.push(wall);
  cpus.push(cpu);
  console.log(
    `pass ${p + 1}:   ${fmt(wall)} ms (${fmt((wall * 1000) / N, 1)} µs/message), CPU ${fmt(cpu)} ms`,
  );
}
const med = median(walls);
console.log(
  `\nreader:   median ${fmt(med)} ms per pass of ${fmt(N)}, ${fmt((med * 1000) / N, 1)} µs per message, ${fmt(bytes / 1024 / 1024 / (med / 1000), 1)} MB/s (raw size)`,
);

fs.mkdirSync(path.join(import.meta.dir, "out"), { recursive: true });
fs.writeFileSync(
  path.join(import.meta.dir, "out", "reader.json"),
  `${JSON.stringify(
    {
      command: COMMAND,
      at: new Date().toISOString(),
      messages: N,
      rawBytes: bytes,
      passesMs: walls.map((w) => Math.round(w)),
      cpuMs: cpus.map((c) => Math.round(c)),
      medianMs: Math.round(med),
      usPerMessage: Math.round((med * 1000) / N),
    },
    null,
    2,
  )}\n`,
);
