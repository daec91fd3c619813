/**
 * Soak benchmark (not a test): a day of one mailbox in IMAP IDLE with Amazon mail arriving every
 * few minutes, shortened by a sped-up clock, and the server's resident memory over that day.
 *
 * - Dovecot (test/support/dovecot.ts) and the server of bench/support/soak-server.ts: what
 *   src/main.ts starts, with its clock and the mailbox's timers --speed times faster (IDLE is
 *   renewed every 20 simulated minutes, checked every 30 simulated seconds with a 2 s floor).
 * - The user registers and connects the mailbox over the HTTP API; once it idles, one Amazon
 *   message (bench/support/amazon-mail.ts: three order confirmations, then a shipped and a
 *   delivered mail, 8–40 KB each) is dropped into the INBOX every --every simulated minutes.
 *   Dovecot tells the idling connection; the server reads it and saves the orders.
 * - Every simulated hour: RSS (VmRSS, anonymous) as the server has it, and how many orders
 *   exist. At the end it waits for every order the mail carried, so the day's mail was really
 *   read, and reads RSS again after a full garbage collection (SIGUSR2 to the server: what stays
 *   once garbage is gone, the figure a leak raises).
 *
 * Growth is the median RSS of the last quarter of the day minus that of the second quarter (the
 * first quarter is warm-up: the mail parser and reader load with the first message). Target
 * (PASS/MISS): growth < 3 MB. SOAK_IDLE_GC=off in the environment runs the server without its
 * trims every 10 minutes (src/util/idle-memory.ts), to see what they change. It exits 1 only when
 * it cannot measure (no Dovecot, the server fails, the mail is not read).
 *
 *   bun run bench/soak.bench.ts [--hours 24] [--speed 120] [--every 5]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "../test/support/wait.ts";
import { benchAmazonMail } from "./support/amazon-mail.ts";
import { freePort, intArg } from "./support/bench-utils.ts";
import {
  connectMailbox,
  DOVECOT_BIN,
  DOVECOT_INSTALL,
  imapEnv,
  MAIL_USER,
  orderCount,
  registerUser,
  startBenchDovecot,
} from "./support/mailbox.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const HOURS = intArg("--hours", 24, 1);
const SPEED = intArg("--speed", 120, 1);
const EVERY_MIN = intArg("--every", 5, 1);
const TARGET_GROWTH_MB = 3;
const idleGc = process.env.SOAK_IDLE_GC !== "off";

const localBun = path.join(ROOT, "node_modules", ".bin", "bun");
const BUN = fs.existsSync(localBun) ? localBun : process.execPath;

type Sample = { hour: number; rssMb: number; anonMb: number; orders: number; sent: number };

function mem(pid: number): { rssMb: number; anonMb: number } {
  const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? 0);
  return { rssMb: kb("VmRSS") / 1024, anonMb: kb("RssAnon") / 1024 };
}

/** Orders carried by the first n messages (groups of five: three orders, shipped, delivered). */
const ordersAfter = (n: number) => 3 * Math.floor(n / 5) + Math.min(n % 5, 3);

const line = (s: Sample) =>
  `RSS ${s.rssMb.toFixed(1)} MB (anonymous ${s.anonMb.toFixed(1)} MB), ${s.orders} orders from ${s.sent} messages`;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function main() {
  if (!fs.existsSync(DOVECOT_BIN)) {
    console.error(`FAIL: Dovecot is not installed (${DOVECOT_INSTALL})`);
    process.exit(1);
  }
  const realMs = (HOURS * 3_600_000) / SPEED;
  console.log("== soak benchmark ==");
  console.log(
    `command:  bun run bench/soak.bench.ts --hours ${HOURS} --speed ${SPEED} --every ${EVERY_MIN}`,
  );
  console.log(
    `machine:  bun ${Bun.spawnSync([BUN, "--version"]).stdout.toString().trim()}, ${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, ${new Date().toISOString()}, load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
  console.log(
    `plan:     ${HOURS} simulated hours in ${(realMs / 60_000).toFixed(1)} real minutes; one Amazon message every ${EVERY_MIN} simulated minutes (${((EVERY_MIN * 60_000) / SPEED / 1000).toFixed(1)} s)\n`,
  );

  const dc = await startBenchDovecot();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-soak-"));
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = Bun.spawn([BUN, "bench/support/soak-server.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SOAK_SPEED: String(SPEED),
      SOAK_IDLE_GC: idleGc ? "on" : "off",
      ...imapEnv(dc),
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stderr = new Response(server.stderr).text();
  // The server's answers to SIGUSR2, one JSON line each, in order.
  const gcLines: string[] = [];
  void (async () => {
    let buf = "";
    const dec = new TextDecoder();
    for await (const chunk of server.stdout) {
      buf += dec.decode(chunk, { stream: true });
      for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
        gcLines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    }
  })();
  /** RSS after a full collection in the server. */
  const collected = async (): Promise<{ gcRssMb: number; gcAnonMb: number }> => {
    const seen = gcLines.length;
    server.kill("SIGUSR2");
    await waitFor(() => gcLines.length > seen, "the server's figures after a collection", 30_000);
    const m = JSON.parse(gcLines[seen]!) as { rssKb: number; anonKb: number };
    return { gcRssMb: m.rssKb / 1024, gcAnonMb: m.anonKb / 1024 };
  };
  const samples: Sample[] = [];
  try {
    await waitFor(
      async () => server.exitCode === null && (await fetch(`${base}/api/health`)).ok,
      "the server to answer /api/health",
      30_000,
    );
    const token = await registerUser(base);
    await connectMailbox(base, token);

    const t0 = performance.now();
    const simHour = () => ((performance.now() - t0) * SPEED) / 3_600_000;
    const mailEveryMs = (EVERY_MIN * 60_000) / SPEED;
    let sent = 0;
    let nextHour = 0;
    let seed = 1;
    const rand = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    while (performance.now() - t0 < realMs) {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${await stderr}`);
      const due = Math.floor((performance.now() - t0) / mailEveryMs) + 1;
      while (sent < due) {
        dc.deliver(MAIL_USER, benchAmazonMail(sent, new Date(), rand).raw.toString());
        sent++;
      }
      if (simHour() >= nextHour) {
        const s = {
          hour: nextHour,
          ...mem(server.pid),
          orders: await orderCount(base, token),
          sent,
        };
        samples.push(s);
        console.log(`hour ${String(s.hour).padStart(2)}: ${line(s)}`);
        nextHour++;
      }
      await Bun.sleep(Math.min(mailEveryMs, 250));
    }
    const want = ordersAfter(sent);
    await waitFor(
      async () => (await orderCount(base, token)) >= want,
      `the ${want} orders of ${sent} messages`,
      120_000,
      200,
    );
    const end = { hour: HOURS, ...mem(server.pid), orders: await orderCount(base, token), sent };
    samples.push(end);
    console.log(`hour ${HOURS}: ${line(end)} (all read)`);
    const gc = await collected();

    const q = (from: number, to: number) =>
      median(samples.filter((s) => s.hour > from && s.hour <= to).map((s) => s.rssMb));
    const early = q(HOURS / 4, HOURS / 2);
    const late = q((3 * HOURS) / 4, HOURS);
    const growth = late - early;
    const peak = Math.max(...samples.map((s) => s.rssMb));
    console.log("");
    console.log(
      `RSS median, hours ${HOURS / 4}–${HOURS / 2}: ${early.toFixed(1)} MB; hours ${(3 * HOURS) / 4}–${HOURS}: ${late.toFixed(1)} MB; growth ${growth.toFixed(1)} MB; peak ${peak.toFixed(1)} MB`,
    );
    console.log(
      `after the day, once garbage is collected: ${gc.gcRssMb.toFixed(1)} MB (anonymous ${gc.gcAnonMb.toFixed(1)} MB)`,
    );
    console.log(
      `  target growth < ${TARGET_GROWTH_MB} MB: ${growth < TARGET_GROWTH_MB ? "PASS" : "MISS"}${idleGc ? "" : " (server without its collections every 10 minutes: SOAK_IDLE_GC=off)"}`,
    );
    const outDir = path.join(ROOT, "bench", "out");
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(
      path.join(outDir, "soak.json"),
      `${JSON.stringify({ date: new Date().toISOString(), hours: HOURS, speed: SPEED, everyMin: EVERY_MIN, loadAverage: os.loadavg(), idleGc, samples, growthMb: growth, afterCollectionMb: gc.gcRssMb }, null, 2)}\n`,
    );
    console.log("\nfigures saved to bench/out/soak.json");
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    await dc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (err) {
  console.error(`\nFAIL: ${(err as Error).message}`);
  process.exit(1);
}
