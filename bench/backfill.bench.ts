/**
 * Mailbox backfill against a real Dovecot (not a test):
 *
 *   bun run bench/backfill.bench.ts              (5,000 Amazon messages among 20,000 others)
 *   bun run bench/backfill.bench.ts --amazon 1000 --others 4000 --samples 10
 *   bun run bench/backfill.bench.ts --cpu-prof bench/out/profile   (the server writes a profile)
 *
 * 1. Seeds one Dovecot INBOX (test/support/dovecot.ts) with N Amazon messages (Vine order
 *    confirmations, shipped and delivered mail built by test/api/mail-messages.ts, distinct order
 *    numbers and Message-IDs, 10–40 KB) placed at random among M others (newsletters and personal
 *    mail from non-Amazon senders, 5–50 KB), dated over the last 170 days. The files are written
 *    straight into the maildir, then Dovecot indexes them (SELECT) and answers the app's own
 *    Amazon search once, so the backfill meets a mailbox the server already knows, as Gmail's is.
 * 2. Runs the real server (`node_modules/.bin/bun run src/main.ts`, fresh DATA_DIR, free port,
 *    GMAIL_IMAP_HOST=localhost), registers, connects the mailbox with an app password, opens the
 *    live-event stream (as a browser has) and, once the mailbox idles, POSTs
 *    /api/imap/process-emails {daysBack: 180}. The backfill is complete when its row in
 *    mail_backfills (read from the server's SQLite file; the API does not show it) says "done".
 *    Figures: wall time from the POST to that moment, messages per second, CPU seconds of the
 *    server and of Dovecot, what the server read (emailsscanned, the ledger, and Dovecot's logout
 *    line for the backfill's session: body_count, body_bytes), the server's RSS sampled from
 *    /proc/<pid>/status every 20 ms and its VmHWM (reset just before the POST). Before the server
 *    starts, a bare imapflow client fetches the same messages from the same Dovecot in the
 *    server's batches (nothing parsed): the floor under any backfill, printed beside it.
 * 3. With the mailbox idling again, APPENDs S new Vine order confirmations through an IMAP client,
 *    one at a time, and times each from the APPEND to the first `order` event on the stream. Then,
 *    with the server stopped, a bare IMAP client idling on the INBOX times Dovecot's own EXISTS
 *    notice (about 0.5 s in Dovecot 2.3), so the app's own share can be told apart.
 *
 * Targets (PASS/MISS, a miss still exits 0): at least 300 Amazon messages/s (well above what
 * Gmail serves: a real backfill is paced by the network and Gmail's download allowance, not by
 * parsing); server peak RSS < 150 MB; APPEND → event p95 < 2 s. The server must read only the
 * Amazon messages. Exits 1 only when it cannot measure (no Dovecot, the server does not start, the
 * backfill does not finish). Figures go to bench/out/backfill.json. Ctrl-C stops the server and
 * Dovecot it started.
 */
import { Database } from "bun:sqlite";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ImapFlow } from "imapflow";
import { INGEST_BATCH_MAX as FETCH_BATCH_MAX } from "../src/features/mailbox/ingest.service.ts";
import { AMAZON_SENDER_DOMAINS } from "../src/mail/amazon/senders.ts";
import { amazonSearchQuery, fetchSources } from "../src/mail/imap/client.ts";
import { amazonMail, plainMail } from "../test/api/mail-messages.ts";
import { type Dovecot, startDovecot } from "../test/support/dovecot.ts";
import { prng } from "../test/support/prng.ts";
import { benchAmazonMail, benchOrderNumber } from "./support/amazon-mail.ts";
import { freePort, intArg, procMem } from "./support/bench-utils.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const localBun = path.join(ROOT, "node_modules", ".bin", "bun");
const BUN = fs.existsSync(localBun) ? localBun : process.execPath;

const RATE_TARGET = 300;
const RSS_TARGET_MB = 150;
const EVENT_P95_TARGET_MS = 2000;
const BACKFILL_TIMEOUT_MS = 10 * 60_000;
const EVENT_TIMEOUT_MS = 15_000;
const DAY_MS = 86_400_000;

const USER = "bench@example.test";
const PASS = "bench-app-pass";

const AMAZON = intArg("--amazon", 5000, 5);
const OTHERS = intArg("--others", 20_000, 0);
const SAMPLES = intArg("--samples", 30, 1);
/** Diagnosis: the server writes a CPU profile (also as markdown) into this folder when it stops. */
const PROFILE_DIR = (() => {
  const i = process.argv.indexOf("--cpu-prof");
  if (i < 0) return null;
  const dir = process.argv[i + 1];
  return path.resolve(ROOT, dir && !dir.startsWith("--") ? dir : "bench/out/profile");
})();
const COMMAND = [
  "bun run bench/backfill.bench.ts",
  ...(process.argv.includes("--amazon") ? [`--amazon ${AMAZON}`] : []),
  ...(process.argv.includes("--others") ? [`--others ${OTHERS}`] : []),
  ...(process.argv.includes("--samples") ? [`--samples ${SAMPLES}`] : []),
  ...(PROFILE_DIR ? [`--cpu-prof ${path.relative(ROOT, PROFILE_DIR) || "."}`] : []),
].join(" ");

/* ------------------------------------------------------------------------------------------------
 * Small helpers
 * --------------------------------------------------------------------------------------------- */

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

/** Resets the process's VmHWM to its current RSS (Linux 4.0+, our own child); false if refused. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * What the IMAP sessions that logged out in this part of Dovecot's log fetched: Dovecot logs
 * `Logged out in=… out=… body_count=… body_bytes=…` for each (imap_logout_format's default).
 */
function fetchedFromLog(logText: string): { sessions: number; bodies: number; bytes: number } {
  let sessions = 0;
  let bodies = 0;
  let bytes = 0;
  for (const m of logText.matchAll(/Logged out .*?body_count=(\d+) body_bytes=(\d+)/g)) {
    sessions++;
    bodies += Number(m[1]);
    bytes += Number(m[2]);
  }
  return { sessions, bodies, bytes };
}

const CLK_TCK = 100;

/** utime + stime of a process in clock ticks, and its process group; null when it is gone. */
function procCpu(pid: number | string): { ticks: number; pgrp: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ticks: Number(f[11]) + Number(f[12]), pgrp: Number(f[2]) };
  } catch {
    return null;
  }
}

/**
 * CPU time of every process of a process group (Dovecot's master and its imap, auth... children),
 * scanned now and then: for each process the highest count seen, so processes that have ended
 * still count up to the last scan.
 */
function groupCpuTracker(pgrp: number) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let started = false;
  const scan = () => {
    for (const name of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      const c = procCpu(name);
      if (!c || c.pgrp !== pgrp) continue;
      const pid = Number(name);
      if (!started) first.set(pid, c.ticks);
      last.set(pid, Math.max(last.get(pid) ?? 0, c.ticks));
    }
    started = true;
  };
  return {
    scan,
    /** CPU seconds since the first scan. */
    seconds: () => {
      let ticks = 0;
      for (const [pid, t] of last) ticks += t - (first.get(pid) ?? 0);
      return ticks / CLK_TCK;
    },
  };
}

class CannotMeasure extends Error {}

async function waitUntil<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      if (err instanceof CannotMeasure) throw err;
      last = err;
    }
    await Bun.sleep(everyMs);
  }
  throw new CannotMeasure(
    `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last}` : ""}`,
  );
}

/* ------------------------------------------------------------------------------------------------
 * The mailbox
 * --------------------------------------------------------------------------------------------- */

const WORDS =
  "the of and to in for on with this that your our new week update read more from about best deals news community event team project notes meeting garden recipe travel photo weekend family school offer limited time members exclusive sale article story review guide tips how why what when local city market coffee music book film".split(
    " ",
  );
const BRANDS = [
  "weekly-gardener",
  "citynews",
  "techdigest",
  "shopsmart-deals",
  "runclub",
  "bookcorner",
  "recipebox",
  "travelnotes",
  "localbank",
  "photoforum",
];
const PEOPLE = ["anna.berg", "tom.li", "maria.rossi", "dev.patel", "sam.okafor", "lena.hofmann"];

type Seeded = {
  /** The Amazon messages as the server fetches them (CRLF), in UID order. */
  amazonRaw: Buffer[];
  amazonBytes: number;
  totalBytes: number;
  orders: number;
  shipped: number;
  delivered: number;
};

/**
 * Writes the mailbox straight into the user's maildir. Dovecot gives new files their UIDs in the
 * order of the time stamp in their names (seconds, then ".M" microseconds), so each file is named
 * `<base>.M<position>`: the UIDs keep the mail's order (an order confirmation before its shipped
 * and delivered mail). test/support/dovecot.ts's deliver() names files by the millisecond plus a
 * random number, which does not keep that order within a millisecond, so this does it itself, the
 * same way otherwise (tmp/ then new/, LF line ends, owned by the user Dovecot runs as).
 */
function seedMaildir(dc: Dovecot): Seeded {
  const maildir = path.join(dc.dir, "home", USER, "Maildir");
  if (!fs.existsSync(path.join(maildir, "new"))) throw new CannotMeasure("no maildir for the user");
  const isRoot = process.getuid?.() === 0;
  const rand = prng(20250114);
  const total = AMAZON + OTHERS;

  // Where the Amazon messages go: N of the positions, at random.
  const isAmazon = new Uint8Array(total);
  for (let i = 0; i < AMAZON; i++) isAmazon[i] = 1;
  for (let i = total - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = isAmazon[i]!;
    isAmazon[i] = isAmazon[j]!;
    isAmazon[j] = t;
  }

  // One 96 KB block of text; every other message takes a slice of it.
  let filler = "";
  let line = "";
  while (filler.length < 96 * 1024) {
    line += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
    if (line.length > 70) {
      filler += `${line.trimEnd()}\n`;
      line = "";
    }
  }
  const slice = (len: number) => {
    const off = Math.floor(rand() * (filler.length - len));
    return filler.slice(off, off + len);
  };

  const start = Date.now() - 170 * DAY_MS;
  const step = (169 * DAY_MS) / total;
  const baseSec = Math.floor(start / 1000);
  const out: Seeded = {
    amazonRaw: [],
    amazonBytes: 0,
    totalBytes: 0,
    orders: 0,
    shipped: 0,
    delivered: 0,
  };
  let a = 0;
  let o = 0;
  for (let pos = 0; pos < total; pos++) {
    const date = new Date(start + pos * step);
    let raw: string;
    if (isAmazon[pos]) {
      // Groups of five: three order confirmations, then a shipped mail for the first and a
      // delivered mail for the second (bench/support/amazon-mail.ts).
      const m = benchAmazonMail(a, date, rand);
      if (m.kind === "ordered") out.orders++;
      else if (m.kind === "shipped") out.shipped++;
      else out.delivered++;
      raw = m.raw.toString("utf8");
      out.amazonRaw.push(m.raw);
      out.amazonBytes += m.raw.length;
      a++;
    } else {
      const size = 5 * 1024 + Math.floor(rand() * 45 * 1024);
      raw = o % 5 < 3 ? newsletter(o, date, slice, size) : personal(o, date, slice, size);
      o++;
    }
    const text = raw.replace(/\r?\n/g, "\n");
    out.totalBytes += Buffer.byteLength(text) + (text.match(/\n/g)?.length ?? 0);
    const name = `${baseSec}.M${pos}P${process.pid}.grapevine-bench`;
    const tmp = path.join(maildir, "tmp", name);
    fs.writeFileSync(tmp, text);
    if (isRoot) fs.chownSync(tmp, 65534, 65534);
    fs.utimesSync(tmp, date, date);
    fs.renameSync(tmp, path.join(maildir, "new", name));
  }
  return out;
}

function newsletter(n: number, date: Date, slice: (len: number) => string, size: number): string {
  const brand = BRANDS[n % BRANDS.length]!;
  const boundary = `nl-${n}-boundary`;
  const textPart = slice(Math.min(4000, Math.floor(size / 4)));
  let html = `<!doctype html><html><body><table width="600" align="center">\n`;
  while (html.length < size - textPart.length - 800) {
    html += `<tr><td class="article"><h2><a href="https://${brand}.example/a/${html.length}">${slice(40).replace(/\n/g, " ")}</a></h2><p>${slice(600).replace(/\n/g, " ")}</p></td></tr>\n`;
  }
  html += `<tr><td><a href="https://${brand}.example/unsubscribe">Unsubscribe</a></td></tr></table></body></html>\n`;
  return [
    `Authentication-Results: mx.google.com; dkim=pass header.i=@${brand}.example; dmarc=pass header.from=${brand}.example`,
    `From: "${brand}" <news@${brand}.example>`,
    "To: jane@gmail.com",
    `Subject: ${brand} #${n}: ${slice(30).replace(/\n/g, " ").trim()}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <nl-${n}@${brand}.example>`,
    `List-Unsubscribe: <https://${brand}.example/unsubscribe>`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=UTF-8",
    "",
    textPart,
    `--${boundary}`,
    "Content-Type: text/html; charset=UTF-8",
    "",
    html,
    `--${boundary}--`,
    "",
  ].join("\n");
}

function personal(n: number, date: Date, slice: (len: number) => string, size: number): string {
  const who = PEOPLE[n % PEOPLE.length]!;
  return plainMail({
    from: `${who}@mail.example`,
    subject: `Re: ${slice(25).replace(/\n/g, " ").trim()}`,
    messageId: `p-${n}@mail.example`,
    body: `Hi Jane,\n\n${slice(size - 600)}\n\nBest,\n${who}\n`,
  }).replace(/^Date: .*$/m, `Date: ${date.toUTCString()}`);
}

/** One new Vine order confirmation, as mail arriving now. */
function arrivingOrder(i: number): string {
  const id = 900_000 + i;
  return amazonMail({
    kind: "ordered",
    order: benchOrderNumber(id),
    items: [{ name: `Live Item ${i}`, asin: `B0LIVE${String(i).padStart(4, "0")}`, price: "0.00" }],
    total: "0.00",
    messageId: `bench-live-${i}-${Date.now()}@email.amazon.com`,
    date: new Date().toUTCString(),
    padding: 20 * 1024,
  });
}

/**
 * Dovecot alone: ms from each APPEND (a small non-Amazon message) until a bare client idling on
 * INBOX hears EXISTS, sorted.
 */
async function dovecotNotice(dc: Dovecot, n: number): Promise<number[]> {
  const watcher = await dc.client(USER);
  const appender = await dc.client(USER);
  const out: number[] = [];
  try {
    await watcher.mailboxOpen("INBOX");
    let existsAt = 0;
    watcher.on("exists", () => {
      existsAt = performance.now();
    });
    void watcher.idle().catch(() => {});
    await Bun.sleep(300);
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await appender.append(
        "INBOX",
        plainMail({ from: "friend@mail.example", subject: `ping ${i}`, body: "Hello.\n" }),
      );
      const until = t0 + 5000;
      while (existsAt < t0 && performance.now() < until) await Bun.sleep(2);
      if (existsAt >= t0) out.push(existsAt - t0);
      // Spaced like separate arrivals: Dovecot's notice timer must not be running already.
      await Bun.sleep(700);
    }
  } finally {
    await appender.logout().catch(() => appender.close());
    watcher.close();
  }
  return out.sort((x, y) => x - y);
}

/* ------------------------------------------------------------------------------------------------
 * The server's side: live events and its log
 * --------------------------------------------------------------------------------------------- */

type LiveEv = { table: string; operation: string; at: number };

async function openEvents(base: string, token: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/api/events/stream?token=${encodeURIComponent(token)}`, {
    signal: ctrl.signal,
  });
  if (!res.ok || !res.body) throw new CannotMeasure(`event stream answered ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const events: LiveEv[] = [];
  const waiter: { wake: (() => void) | null } = { wake: null };
  let closed = false;
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const at = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let i = buffer.indexOf("\n\n");
        while (i >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          for (const l of block.split("\n")) {
            if (!l.startsWith("data:")) continue;
            const e = JSON.parse(l.slice(5)) as { table: string; operation: string };
            events.push({ table: e.table, operation: e.operation, at });
          }
          i = buffer.indexOf("\n\n");
        }
        waiter.wake?.();
      }
    } catch {
      // aborted
    }
    closed = true;
    waiter.wake?.();
  })();
  return {
    events,
    /** The first event at or after index `from` matching `pred`, or null after timeoutMs. */
    async next(from: number, pred: (e: LiveEv) => boolean, timeoutMs: number) {
      const until = performance.now() + timeoutMs;
      let i = from;
      for (;;) {
        for (; i < events.length; i++) if (pred(events[i]!)) return events[i]!;
        const left = until - performance.now();
        if (left <= 0 || closed) return null;
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiter.wake = () => {
            clearTimeout(t);
            waiter.wake = null;
            resolve();
          };
        });
      }
    },
    close: () => ctrl.abort(),
  };
}

type LogSummary = {
  levels: Record<string, number>;
  messages: Map<string, number>;
  other: string[];
};

function drainLog(stream: ReadableStream<Uint8Array>, sink: LogSummary) {
  const names: Record<number, string> = { 40: "warn", 50: "error", 60: "fatal" };
  void (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of stream) {
      buf += decoder.decode(chunk, { stream: true });
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        nl = buf.indexOf("\n");
        if (!line) continue;
        try {
          const j = JSON.parse(line) as { level?: number; msg?: string; err?: unknown };
          const level = names[j.level ?? 0] ?? `level ${j.level}`;
          sink.levels[level] = (sink.levels[level] ?? 0) + 1;
          const err = typeof j.err === "string" ? j.err : (j.err as { message?: string })?.message;
          const key = `${level}: ${j.msg ?? "?"}${err ? ` (${String(err).slice(0, 160)})` : ""}`;
          sink.messages.set(key, (sink.messages.get(key) ?? 0) + 1);
        } catch {
          if (sink.other.length < 20) sink.other.push(line.slice(0, 300));
        }
      }
    }
  })();
}

/* ------------------------------------------------------------------------------------------------
 * The run
 * --------------------------------------------------------------------------------------------- */

async function main(): Promise<void> {
  const cpus = os.cpus();
  const serverBun = Bun.spawnSync([BUN, "--version"]).stdout.toString().trim();
  const dovecotVersion = (() => {
    try {
      return Bun.spawnSync(["/usr/sbin/dovecot", "--version"]).stdout.toString().trim();
    } catch {
      return "?";
    }
  })();
  console.log("== mailbox backfill benchmark ==");
  console.log(`command:  ${COMMAND}`);
  console.log(
    `machine:  ${cpus[0]?.model ?? "?"} x${cpus.length} cores, ${fmt(mb(os.totalmem()) / 1024, 1)} GB RAM, ${os.platform()} ${os.release()}`,
  );
  console.log(
    `          bun ${serverBun} (server), bun ${Bun.version} (this process), Dovecot ${dovecotVersion}, ${new Date().toISOString()}`,
  );
  const load0 = os.loadavg();
  console.log(
    `load:     ${load0.map((l) => l.toFixed(2)).join(" ")} (1/5/15 min)${load0[0]! > cpus.length / 2 ? ": other processes are busy, the figures will be noisy (compare CPU times)" : ""}`,
  );
  console.log(
    `setup:    ${fmt(AMAZON)} Amazon messages among ${fmt(OTHERS)} others in one INBOX; ${SAMPLES} live APPENDs\n`,
  );

  const figures: Record<string, unknown> = {
    command: COMMAND,
    machine: {
      cpu: cpus[0]?.model ?? "?",
      cores: cpus.length,
      platform: `${os.platform()} ${os.release()}`,
      bunServer: serverBun,
      bunBench: Bun.version,
      dovecot: dovecotVersion,
    },
    date: new Date().toISOString(),
    loadAverageAtStart: load0.map((l) => +l.toFixed(2)),
    amazonMessages: AMAZON,
    otherMessages: OTHERS,
  };

  let dc: Dovecot | null = null;
  let server: ReturnType<typeof Bun.spawn> | null = null;
  let events: Awaited<ReturnType<typeof openEvents>> | null = null;
  let live: ImapFlow | null = null;
  let db: Database | null = null;
  let sampler: ReturnType<typeof setInterval> | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-backfill-"));
  const log: LogSummary = { levels: {}, messages: new Map(), other: [] };
  let exitCode = 0;
  let dovecotProblems: string[] = [];
  // Ctrl-C: stop what this run started (Dovecot runs in a session of its own and would stay).
  process.once("SIGINT", () => {
    void (async () => {
      console.error("\ninterrupted: stopping the server and Dovecot");
      if (server && server.exitCode === null) server.kill("SIGTERM");
      await server?.exited;
      await dc?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    })();
  });

  try {
    /* ---- Dovecot and the mailbox ---- */
    const tSeed0 = performance.now();
    try {
      dc = await startDovecot({ users: [{ user: USER, pass: PASS }], extraFolders: ["Processed"] });
    } catch (err) {
      throw new CannotMeasure((err as Error).message);
    }
    await dc.messages(USER); // the first login creates the maildir
    const seeded = seedMaildir(dc);
    // Flush the written mail to disk now, so the write-back does not run during the measurements.
    Bun.spawnSync(["sync"]);
    const tWritten = performance.now();
    const idx = await dc.client(USER);
    let indexMs: number;
    let coldSearchMs: number;
    let warmSearchMs: number;
    let found: number;
    let fetchOnly = { wall: 0, cpu: 0 };
    let fetchedBytes = 0;
    try {
      const t0 = performance.now();
      await idx.mailboxOpen("INBOX");
      indexMs = performance.now() - t0;
      const exists = idx.mailbox ? idx.mailbox.exists : 0;
      if (exists !== AMAZON + OTHERS) {
        throw new CannotMeasure(`Dovecot shows ${exists} messages, not ${AMAZON + OTHERS}`);
      }
      // The backfill's own search (on a server without X-GM-EXT-1: an OR of FROM terms).
      const query = amazonSearchQuery(idx, AMAZON_SENDER_DOMAINS, {
        uidFrom: 1,
        since: new Date(Date.now() - 180 * DAY_MS),
      });
      const t1 = performance.now();
      const uids = (await idx.search(query, { uid: true })) || [];
      coldSearchMs = performance.now() - t1;
      found = uids.length;
      const t2 = performance.now();
      await idx.search(query, { uid: true });
      warmSearchMs = performance.now() - t2;
      // The floor under any backfill through imapflow: the same sources fetched as the server
      // fetches them (batches of FETCH_BATCH_MAX), nothing parsed, nothing kept.
      Bun.gc(true);
      const c0 = process.cpuUsage();
      const t3 = performance.now();
      for (let i = 0; i < uids.length; i += FETCH_BATCH_MAX) {
        const got = await fetchSources(idx, uids.slice(i, i + FETCH_BATCH_MAX));
        fetchedBytes += [...got.values()].reduce((n, b) => n + b.length, 0);
      }
      fetchOnly = { wall: performance.now() - t3, cpu: cpuMs(process.cpuUsage(c0)) };
    } finally {
      await idx.logout().catch(() => idx.close());
    }
    const seedMs = performance.now() - tSeed0;
    if (found !== AMAZON) {
      throw new CannotMeasure(`the Amazon search finds ${found} messages, not ${AMAZON}`);
    }
    console.log(
      `seeding:  ${fmt(seedMs / 1000, 1)} s in all: wrote ${fmt(AMAZON + OTHERS)} files (${fmt(mb(seeded.totalBytes))} MB, Amazon ${fmt(mb(seeded.amazonBytes))} MB) in ${fmt((tWritten - tSeed0) / 1000, 1)} s (with Dovecot's start and a sync),`,
    );
    console.log(
      `          Dovecot indexed them (SELECT) in ${fmt(indexMs / 1000, 1)} s; the app's Amazon search found ${fmt(found)} in ${fmt(coldSearchMs)} ms cold, ${fmt(warmSearchMs)} ms warm`,
    );
    console.log(
      `          Amazon mail: ${fmt(seeded.orders)} Vine order confirmations, ${fmt(seeded.shipped)} shipped, ${fmt(seeded.delivered)} delivered`,
    );
    console.log(
      `          IMAP fetch alone (a bare imapflow client, batches of ${FETCH_BATCH_MAX}, nothing parsed): ${fmt(fetchedBytes / 1024 / 1024)} MB in ${fmt(fetchOnly.wall / 1000, 2)} s, CPU ${fmt(fetchOnly.cpu / 1000, 2)} s\n`,
    );
    figures.fetchOnly = {
      seconds: +(fetchOnly.wall / 1000).toFixed(3),
      cpuSeconds: +(fetchOnly.cpu / 1000).toFixed(3),
      mb: +mb(fetchedBytes).toFixed(1),
    };
    figures.seeding = {
      seconds: +(seedMs / 1000).toFixed(2),
      writeSeconds: +((tWritten - tSeed0) / 1000).toFixed(2),
      indexSeconds: +(indexMs / 1000).toFixed(2),
      searchColdMs: Math.round(coldSearchMs),
      searchWarmMs: Math.round(warmSearchMs),
      mailboxMB: +mb(seeded.totalBytes).toFixed(1),
      amazonMB: +mb(seeded.amazonBytes).toFixed(1),
      orderMails: seeded.orders,
      shippedMails: seeded.shipped,
      deliveredMails: seeded.delivered,
    };

    /* ---- the server ---- */
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const profile = PROFILE_DIR
      ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${PROFILE_DIR}`]
      : [];
    server = Bun.spawn([BUN, ...profile, "run", "src/main.ts"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? os.tmpdir(),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        ALLOW_REGISTRATION: "true",
        GMAIL_IMAP_HOST: "localhost",
        GMAIL_IMAP_PORT: String(dc.port),
        GMAIL_IMAP_TLS: "false",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    drainLog(server.stdout as ReadableStream<Uint8Array>, log);
    drainLog(server.stderr as ReadableStream<Uint8Array>, log);
    const pid = server.pid;
    await waitUntil(
      "the server to answer /api/health",
      async () => server?.exitCode === null && (await fetch(`${base}/api/health`)).ok,
      20_000,
      20,
    );
    const reg = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: "bench@example.com",
        password: "benchpass1",
        displayname: "Bench",
      }),
    });
    if (reg.status !== 201)
      throw new CannotMeasure(`register answered ${reg.status}: ${await reg.text()}`);
    const { token, user } = (await reg.json()) as { token: string; user: { userid: number } };
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const connect = await fetch(`${base}/api/imap/app-password`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ email: USER, appPassword: PASS }),
    });
    if (!connect.ok) {
      throw new CannotMeasure(`app-password answered ${connect.status}: ${await connect.text()}`);
    }
    const status = async () =>
      (await (await fetch(`${base}/api/imap/status`, { headers: auth })).json()) as {
        status: string;
        emailsScanned: number;
      };
    await waitUntil("the mailbox to idle", async () => (await status()).status === "idle", 30_000);
    events = await openEvents(base, token);
    db = new Database(path.join(dataDir, "app.db"));
    db.exec("PRAGMA busy_timeout = 5000");
    const backfillRow = db.query<{ status: string; done: number }, [number]>(
      "SELECT status, done_through_uid AS done FROM mail_backfills WHERE user_id = ?",
    );
    const scannedRow = db.query<{ n: number }, [number]>(
      "SELECT emails_scanned AS n FROM mail_stats WHERE user_id = ?",
    );
    await Bun.sleep(500);

    /* ---- 1 + 2: the backfill ---- */
    console.log("-- backfill: POST /api/imap/process-emails {daysBack: 180} --");
    Bun.gc(true);
    const memBefore = procMem(pid);
    const hwmReset = resetPeak(pid);
    const dovecotLogBefore = dc.log().length;
    let peakRss = memBefore?.rss ?? 0;
    const serverCpuBefore = procCpu(pid)?.ticks ?? Number.NaN;
    const dovecotCpu = groupCpuTracker(dc.pid());
    dovecotCpu.scan();
    let ticks = 0;
    sampler = setInterval(() => {
      const m = procMem(pid);
      if (m && m.rss > peakRss) peakRss = m.rss;
      if (++ticks % 5 === 0) dovecotCpu.scan();
    }, 20);
    const eventsBefore = events.events.length;
    const t0 = performance.now();
    const post = await fetch(`${base}/api/imap/process-emails`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ daysBack: 180 }),
    });
    const acceptedMs = performance.now() - t0;
    if (post.status !== 202) {
      throw new CannotMeasure(`process-emails answered ${post.status}: ${await post.text()}`);
    }
    let lastPrint = performance.now();
    let lastScanned = 0;
    const finalStatus = await waitUntil(
      "the backfill to finish",
      () => {
        const row = backfillRow.get(user.userid);
        if (row?.status === "failed") throw new CannotMeasure("the backfill failed (see the log)");
        if (server?.exitCode !== null) throw new CannotMeasure("the server exited");
        const now = performance.now();
        if (now - lastPrint >= 5000) {
          const scanned = scannedRow.get(user.userid)?.n ?? 0;
          console.log(
            `  ${fmt((now - t0) / 1000, 1)} s: ${fmt(scanned)} read (${fmt(((scanned - lastScanned) * 1000) / (now - lastPrint))}/s lately), RSS ${fmt(mb(procMem(pid)?.rss ?? 0))} MB, peak ${fmt(mb(peakRss))} MB`,
          );
          lastPrint = now;
          lastScanned = scanned;
        }
        return row?.status === "done" ? row : null;
      },
      BACKFILL_TIMEOUT_MS,
      10,
    );
    const backfillMs = performance.now() - t0;
    const serverCpuS = ((procCpu(pid)?.ticks ?? Number.NaN) - serverCpuBefore) / CLK_TCK;
    dovecotCpu.scan();
    const dovecotCpuS = dovecotCpu.seconds();
    clearInterval(sampler);
    sampler = undefined;
    const memAfter = procMem(pid);
    if (memAfter && memAfter.rss > peakRss) peakRss = memAfter.rss;
    // With VmHWM reset before the POST, it is the exact peak (the sampler can miss a spike).
    if (hwmReset && memAfter && memAfter.hwm > peakRss) peakRss = memAfter.hwm;
    // The backfill's connection logs out just after its row says "done": wait for Dovecot's line.
    const fetched = await waitUntil(
      "Dovecot to log the backfill's logout",
      () => {
        const f = fetchedFromLog(dc!.log().slice(dovecotLogBefore));
        return f.sessions > 0 ? f : null;
      },
      5000,
      20,
    ).catch(() => null);

    const scanned = scannedRow.get(user.userid)?.n ?? 0;
    const apiScanned = (await status()).emailsScanned;
    const userData = (await (await fetch(`${base}/api/user/data`, { headers: auth })).json()) as {
      emailsscanned?: number;
    };
    const ledger = db
      .query<{ outcome: string; reason: string | null; n: number }, [number]>(
        "SELECT outcome, reason, count(*) AS n FROM processed_messages WHERE user_id = ? GROUP BY outcome, reason ORDER BY n DESC",
      )
      .all(user.userid);
    const ledgerTotal = ledger.reduce((s, r) => s + r.n, 0);
    const orderStatuses = db
      .query<{ status: string; n: number }, [number]>(
        "SELECT status, count(*) AS n FROM orders WHERE user_id = ? GROUP BY status ORDER BY n DESC",
      )
      .all(user.userid);
    const ordersTotal = orderStatuses.reduce((s, r) => s + r.n, 0);

    const perSecond = (AMAZON * 1000) / backfillMs;
    console.log(
      `backfill: ${fmt(backfillMs / 1000, 2)} s from the POST (answered 202 in ${fmt(acceptedMs)} ms) to the backfill row "done" (last UID ${finalStatus.done}): ${fmt(perSecond)} Amazon messages/s`,
    );
    console.log(
      `          the server read ${fmt(scanned)} messages (emailsscanned; API status ${fmt(apiScanned)}, /api/user/data ${fmt(userData.emailsscanned ?? Number.NaN)}), ledger ${fmt(ledgerTotal)}: ${ledger.map((r) => `${r.outcome}${r.reason ? `/${r.reason}` : ""} ${fmt(r.n)}`).join(", ")}`,
    );
    console.log(
      fetched
        ? `          Dovecot says the backfill's session fetched ${fmt(fetched.bodies)} message bodies, ${fmt(mb(fetched.bytes), 1)} MB (the Amazon mail is ${fmt(mb(seeded.amazonBytes), 1)} MB of ${fmt(mb(seeded.totalBytes))} MB)`
        : "          (Dovecot logged no logout for the backfill's session: fetched bodies unknown)",
    );
    console.log(
      `          CPU during the backfill: server ${fmt(serverCpuS, 1)} s (${fmt((serverCpuS * 100000) / backfillMs)}% of one core), Dovecot ${fmt(dovecotCpuS, 1)} s; ${cpus.length} cores`,
    );
    console.log(
      `          orders: ${fmt(ordersTotal)} (${orderStatuses.map((r) => `${r.status} ${fmt(r.n)}`).join(", ")})`,
    );
    console.log(
      `memory:   server RSS ${fmt(mb(memBefore?.rss ?? 0))} MB before, peak ${fmt(mb(peakRss), 1)} MB during (sampled every 20 ms${hwmReset ? ", or VmHWM if higher" : ""}), ${fmt(mb(memAfter?.rss ?? 0))} MB after; VmHWM ${fmt(mb(memAfter?.hwm ?? 0), 1)} MB (${hwmReset ? "reset just before the backfill: the exact peak during it" : "since the server started: it could not be reset"})`,
    );

    // Events of the backfill, counted now that the stream has surely delivered them all.
    const eventsDuring = events.events.slice(eventsBefore);
    const countEvents = (table: string) => eventsDuring.filter((e) => e.table === table).length;
    console.log(
      `          live events on the stream: ${fmt(countEvents("order"))} order, ${fmt(countEvents("IMAP"))} IMAP, ${fmt(countEvents("user"))} user, ${fmt(countEvents("notification"))} notification`,
    );
    console.log(
      `          the floor: a bare IMAP FETCH of the same messages from the same Dovecot took ${fmt(fetchOnly.wall / 1000, 2)} s (${fmt((AMAZON * 1000) / fetchOnly.wall)} messages/s) before anything is parsed or stored (bench/order-writes.bench.ts: the orders' SQLite writes alone)\n`,
    );

    figures.backfill = {
      seconds: +(backfillMs / 1000).toFixed(3),
      acceptedMs: Math.round(acceptedMs),
      messagesPerSecond: Math.round(perSecond),
      emailsscanned: scanned,
      emailsscannedApi: apiScanned,
      ledger: Object.fromEntries(
        ledger.map((r) => [`${r.outcome}${r.reason ? `/${r.reason}` : ""}`, r.n]),
      ),
      orders: Object.fromEntries(orderStatuses.map((r) => [r.status, r.n])),
      serverCpuSeconds: +serverCpuS.toFixed(2),
      dovecotCpuSeconds: +dovecotCpuS.toFixed(2),
      dovecotFetchedBodies: fetched?.bodies ?? null,
      dovecotFetchedMB: fetched ? +mb(fetched.bytes).toFixed(1) : null,
      amazonMB: +mb(seeded.amazonBytes).toFixed(1),
      liveEvents: {
        order: countEvents("order"),
        IMAP: countEvents("IMAP"),
        user: countEvents("user"),
        notification: countEvents("notification"),
      },
      fetchOnlySeconds: +(fetchOnly.wall / 1000).toFixed(3),
    };
    figures.memory = {
      rssBeforeMB: +mb(memBefore?.rss ?? 0).toFixed(1),
      rssPeakMB: +mb(peakRss).toFixed(1),
      rssAfterMB: +mb(memAfter?.rss ?? 0).toFixed(1),
      vmHwmMB: +mb(memAfter?.hwm ?? 0).toFixed(1),
      vmHwmResetBeforeBackfill: hwmReset,
    };

    /* ---- 3: APPEND → order event ---- */
    console.log(
      `-- live: ${SAMPLES} x APPEND of a Vine order → first "order" event on the stream --`,
    );
    await waitUntil("the mailbox to idle", async () => (await status()).status === "idle", 30_000);
    live = await dc.client(USER);
    const lat: number[] = [];
    const appendMs: number[] = [];
    let timeouts = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const raw = arrivingOrder(i);
      const from = events.events.length;
      const s0 = performance.now();
      await live.append("INBOX", raw);
      appendMs.push(performance.now() - s0);
      const ev = await events.next(
        from,
        (e) => e.table === "order" && e.at >= s0,
        EVENT_TIMEOUT_MS,
      );
      if (ev) lat.push(ev.at - s0);
      else timeouts++;
      // Let the pass finish and the mailbox go back to IDLE before the next message.
      await Bun.sleep(150);
      await waitUntil(
        "the mailbox to idle",
        async () => (await status()).status === "idle",
        30_000,
        20,
      );
    }
    lat.sort((x, y) => x - y);
    appendMs.sort((x, y) => x - y);
    const p50 = pct(lat, 50);
    const p95 = timeouts > 0 ? Number.POSITIVE_INFINITY : pct(lat, 95);
    console.log(
      `events:   APPEND → order event p50 ${fmt(p50)} ms, p95 ${fmt(p95)} ms, max ${fmt(lat.at(-1) ?? Number.NaN)} ms, min ${fmt(lat[0] ?? Number.NaN)} ms (${lat.length} of ${SAMPLES}${timeouts ? `, ${timeouts} timed out after ${EVENT_TIMEOUT_MS} ms` : ""}); the APPEND itself p50 ${fmt(pct(appendMs, 50))} ms`,
    );
    const rssEnd = procMem(pid)?.rss ?? Number.NaN;
    await live.logout().catch(() => live?.close());
    live = null;

    // Dovecot's own part, for reference, with the server stopped (no other session touching the
    // folder): a bare imapflow client idles on INBOX and hears EXISTS for each APPEND. Dovecot 2.3
    // holds IDLE notices back for up to 0.5 s, so that much of the figure above is not the app's.
    const proc = server;
    proc.kill("SIGTERM");
    const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
    await proc.exited;
    clearTimeout(killer);
    const bare = await dovecotNotice(dc, Math.min(SAMPLES, 10));
    const appShare = p50 - pct(bare, 50);
    console.log(
      `          Dovecot alone (server stopped): a bare client idling on INBOX heard EXISTS p50 ${fmt(pct(bare, 50))} ms, max ${fmt(bare.at(-1) ?? Number.NaN)} ms after the APPEND (${bare.length} of ${Math.min(SAMPLES, 10)}): the app's own share is about ${fmt(appShare)} ms (p50)`,
    );
    console.log(
      `          server RSS at the end: ${fmt(mb(rssEnd))} MB (after the backfill: ${fmt(mb(memAfter?.rss ?? 0))} MB)\n`,
    );
    figures.events = {
      samples: SAMPLES,
      received: lat.length,
      timeouts,
      p50Ms: Math.round(p50),
      p95Ms: Number.isFinite(p95) ? Math.round(p95) : null,
      maxMs: Math.round(lat.at(-1) ?? Number.NaN),
      minMs: Math.round(lat[0] ?? Number.NaN),
      appendP50Ms: Math.round(pct(appendMs, 50)),
      dovecotIdleExistsP50Ms: Math.round(pct(bare, 50)),
      dovecotIdleExistsMaxMs: Math.round(bare.at(-1) ?? Number.NaN),
      appShareP50Ms: Math.round(appShare),
    };
    (figures.memory as Record<string, unknown>).rssEndMB = +mb(rssEnd).toFixed(1);

    /* ---- the verdicts ---- */
    const onlyAmazon =
      scanned === AMAZON && ledgerTotal === AMAZON && (!fetched || fetched.bodies === AMAZON);
    console.log(
      `${verdict(perSecond >= RATE_TARGET)} backfill ${fmt(perSecond)} Amazon messages/s (${fmt(backfillMs / 1000, 2)} s; target >= ${RATE_TARGET}/s); a bare IMAP FETCH of the same messages: ${fmt(fetchOnly.wall / 1000, 2)} s`,
    );
    console.log(
      `${verdict(peakRss < RSS_TARGET_MB * 1024 * 1024)} server peak RSS during the backfill ${fmt(mb(peakRss), 1)} MB (target < ${RSS_TARGET_MB} MB)`,
    );
    console.log(
      `${verdict(p95 < EVENT_P95_TARGET_MS)} APPEND → order event p95 ${fmt(p95)} ms (target < ${EVENT_P95_TARGET_MS} ms)`,
    );
    console.log(
      `${verdict(onlyAmazon)} the server read ${fmt(scanned)} messages: ${onlyAmazon ? "the Amazon ones only" : `expected exactly ${fmt(AMAZON)}`} (of ${fmt(AMAZON + OTHERS)} in the folder)`,
    );
    figures.targets = {
      messagesPerSecond: {
        target: RATE_TARGET,
        value: Math.round(perSecond),
        pass: perSecond >= RATE_TARGET,
        fetchOnlySeconds: +(fetchOnly.wall / 1000).toFixed(3),
      },
      peakRssMB: {
        target: RSS_TARGET_MB,
        value: +mb(peakRss).toFixed(1),
        pass: peakRss < RSS_TARGET_MB * 1024 * 1024,
      },
      eventP95Ms: {
        target: EVENT_P95_TARGET_MS,
        value: Number.isFinite(p95) ? Math.round(p95) : null,
        pass: p95 < EVENT_P95_TARGET_MS,
      },
      onlyAmazonRead: { pass: onlyAmazon, read: scanned, expected: AMAZON },
    };
  } catch (err) {
    exitCode = 1;
    console.error(
      `cannot measure: ${err instanceof CannotMeasure ? err.message : ((err as Error).stack ?? String(err))}`,
    );
  } finally {
    clearInterval(sampler);
    events?.close();
    if (live) await live.logout().catch(() => live?.close());
    db?.close();
    if (server && server.exitCode === null) {
      const proc = server;
      proc.kill("SIGTERM");
      const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      await proc.exited;
      clearTimeout(killer);
    }
    await Bun.sleep(50); // the last log lines
    if (dc) {
      dovecotProblems = dc
        .log()
        .split("\n")
        .filter((l) => /\b(warning|error|panic|fatal)\b/i.test(l));
      await dc.stop();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const logged = [...log.messages].sort((x, y) => y[1] - x[1]);
  figures.serverLog = {
    levels: log.levels,
    messages: Object.fromEntries(logged.slice(0, 20)),
    other: log.other,
  };
  if (logged.length || log.other.length) {
    console.log("\nserver log (warn and above):");
    for (const [m, n] of logged.slice(0, 12)) console.log(`  ${n} x ${m}`);
    for (const l of log.other.slice(0, 5)) console.log(`  ${l}`);
  } else {
    console.log("\nserver log: no warnings or errors");
  }
  figures.dovecotLogProblems = dovecotProblems.slice(0, 20);
  if (dovecotProblems.length) {
    console.log(`Dovecot log: ${dovecotProblems.length} warning/error lines, the first:`);
    for (const l of dovecotProblems.slice(0, 5)) console.log(`  ${l.slice(0, 300)}`);
  } else {
    console.log("Dovecot log: no warnings or errors");
  }

  const load1 = os.loadavg();
  figures.loadAverageAtEnd = load1.map((l) => +l.toFixed(2));
  console.log(`load:     ${load1.map((l) => l.toFixed(2)).join(" ")} at the end`);
  fs.mkdirSync(path.join(import.meta.dir, "out"), { recursive: true });
  if (exitCode === 0) {
    fs.writeFileSync(
      path.join(import.meta.dir, "out", "backfill.json"),
      `${JSON.stringify(figures, null, 2)}\n`,
    );
    console.log("figures:  bench/out/backfill.json");
  }
  process.exit(exitCode);
}

await main();
