/**
 * Startup benchmark (not a test): starts the real server the way `npm start` does after its build
 * step (`bun dist-server/main.js`, built here first; spawning the bun binary directly so npm is not
 * measured), with a fresh temp DATA_DIR and a free port each run. `--source` measures
 * `bun run src/main.ts` instead, to compare.
 *
 * 1. What each module costs: imported alone into a fresh bun, resident memory over a bare bun
 *    (bench/support/module-costs.ts), and when the server loads it.
 * 2. Over RUNS runs: wall time from spawn to the first 200 from /api/health (polled every 5 ms),
 *    and the time from SIGTERM to exit. After the last run is healthy it sits idle for IDLE_MS and
 *    reads the server's resident memory (VmRSS, RssAnon, RssFile from /proc/<pid>/status).
 * 3. With one connected mailbox (the real Dovecot of the tests, offering COMPRESS=DEFLATE as
 *    Gmail does): the user registers and connects with an app password; then the server is
 *    started again on that data folder, as after a restart, and once Dovecot sees the mailbox in
 *    IMAP IDLE it sits idle for IDLE_MS, asked nothing, and is read again (the target is read
 *    against this: a home server idles with no browser open most of the day); then the mailbox's
 *    status is asked as the Account page does, and after IDLE_MS it is read once more.
 *
 * Targets (PASS/MISS, never a non-zero exit): cold start median < 300 ms, idle RSS <= 60 MB with
 * and without a mailbox, shutdown < 5 s. It exits 1 only when it cannot measure: the server does
 * not start, its health is not ok, or it does not exit with code 0 after SIGTERM. Without Dovecot
 * the mailbox figure is reported as not measured.
 *
 *   bun run bench/startup.bench.ts [--no-modules] [--source]   (or: npm run bench, which runs every benchmark)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildServer, SERVER_ENTRY } from "../scripts/build-server.ts";
import { freePort } from "./support/bench-utils.ts";
import {
  call,
  connectMailbox,
  DOVECOT_BIN,
  DOVECOT_INSTALL,
  imapEnv,
  registerUser,
  startBenchDovecot,
  waitForDovecotIdle,
  waitForIdle,
} from "./support/mailbox.ts";
import { type ModuleCost, measureModuleCosts } from "./support/module-costs.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const RUNS = 5;
const POLL_MS = 5;
const IDLE_MS = 5_000;
const START_TIMEOUT_MS = 15_000;
const EXIT_TIMEOUT_MS = 15_000;
const TARGET_START_MS = 300;
const TARGET_RSS_MB = 60;
const TARGET_SHUTDOWN_MS = 5_000;

/** The npm-installed bun, as `npm start` uses it; the running bun when that is missing. */
const localBun = path.join(ROOT, "node_modules", ".bin", "bun");
const BUN = fs.existsSync(localBun) ? localBun : process.execPath;
const FROM_SOURCE = process.argv.includes("--source");
const SERVER_ARGS = ["run", FROM_SOURCE ? "src/main.ts" : path.relative(ROOT, SERVER_ENTRY)];

type Mem = { rssKb: number; hwmKb: number; anonKb: number; fileKb: number };

type Run = {
  startMs: number;
  shutdownMs: number;
  exitCode: number | null;
  mem?: Mem;
};

/** Resident memory of a process in KB (Linux /proc); null when it cannot be read. */
function readMem(pid: number): Mem | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? 0);
    return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM"), anonKb: kb("RssAnon"), fileKb: kb("RssFile") };
  } catch {
    return null;
  }
}

/** What a run does once the server is healthy, before it is stopped (the mailbox runs). */
type WhileUp = (base: string, pid: number) => Promise<void>;

class BenchError extends Error {}

/** True when the process exits within `ms`; the timer is cleared so it never holds the loop. */
async function waitForExit(proc: Bun.Subprocess, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([proc.exited.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function tail(text: string, lines = 20): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

async function oneRun(
  index: number,
  opts: {
    measureMemory: boolean;
    /** A data folder to start on (kept); a fresh one (removed after) when absent. */
    dataDir?: string;
    env?: Record<string, string>;
    whileUp?: WhileUp;
  },
): Promise<Run> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-"));
  const port = freePort();
  const url = `http://127.0.0.1:${port}/api/health`;
  // Every setting is given explicitly (the defaults, but a private port, address and data folder),
  // so a developer's .env cannot change what is measured.
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    LOG_RETENTION_DAYS: "14",
    ALLOW_REGISTRATION: "true",
    SESSION_DAYS: "30",
    TRUST_PROXY: "false",
    ...opts.env,
  };

  const t0 = performance.now();
  const proc = Bun.spawn([BUN, ...SERVER_ARGS], {
    cwd: ROOT,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  // Drain the pipes so the server never blocks on a full one; kept for error reports.
  const stdout = new Response(proc.stdout).text();
  const stderr = new Response(proc.stderr).text();
  const output = async () =>
    `--- stdout (tail) ---\n${tail(await stdout)}\n--- stderr (tail) ---\n${tail(await stderr)}`;

  try {
    let startMs = -1;
    while (startMs < 0) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        throw new BenchError(
          `run ${index}: the server exited (code ${proc.exitCode}, signal ${proc.signalCode}) before /api/health answered\n${await output()}`,
        );
      }
      if (performance.now() - t0 > START_TIMEOUT_MS) {
        proc.kill("SIGKILL");
        await proc.exited;
        throw new BenchError(
          `run ${index}: no 200 from ${url} within ${START_TIMEOUT_MS} ms\n${await output()}`,
        );
      }
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
        if (res.status === 200) {
          startMs = performance.now() - t0;
          const body = (await res.json()) as { status?: string };
          if (body.status !== "ok") {
            throw new BenchError(`run ${index}: /api/health answered ${JSON.stringify(body)}`);
          }
        } else {
          await res.arrayBuffer();
        }
      } catch (err) {
        if (err instanceof BenchError) throw err;
        // not listening yet
      }
      if (startMs < 0) await Bun.sleep(POLL_MS);
    }

    const run: Run = { startMs, shutdownMs: -1, exitCode: null };
    if (opts.whileUp) {
      try {
        await opts.whileUp(`http://127.0.0.1:${port}`, proc.pid);
      } catch (err) {
        throw new BenchError(`run ${index}: ${(err as Error).message}\n${await output()}`);
      }
    }
    if (opts.measureMemory) {
      await Bun.sleep(IDLE_MS);
      run.mem = readMem(proc.pid) ?? undefined;
    }

    const t1 = performance.now();
    proc.kill("SIGTERM");
    const exited = await waitForExit(proc, EXIT_TIMEOUT_MS);
    if (!exited) {
      proc.kill("SIGKILL");
      await proc.exited;
      throw new BenchError(
        `run ${index}: still running ${EXIT_TIMEOUT_MS} ms after SIGTERM (killed)\n${await output()}`,
      );
    }
    run.shutdownMs = performance.now() - t1;
    run.exitCode = proc.exitCode;
    if (proc.exitCode !== 0) {
      throw new BenchError(
        `run ${index}: exited with code ${proc.exitCode} (signal ${proc.signalCode}) after SIGTERM, expected 0\n${await output()}`,
      );
    }
    return run;
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGKILL");
      await proc.exited;
    }
    if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0]!, median, max: sorted[sorted.length - 1]! };
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
const memLine = (m: Mem) =>
  `${mb(m.rssKb)} (anonymous ${mb(m.anonKb)}, mapped from files ${mb(m.fileKb)}; peak ${mb(m.hwmKb)})`;

function printModuleTable(bare: { rssKb: number }, costs: ModuleCost[], bundled: boolean) {
  const how = bundled
    ? "bundled alone as the server is, imported into a fresh bun"
    : "its sources imported alone into a fresh bun (--source)";
  console.log(`-- what each module costs: ${how} (bare bun ${mb(bare.rssKb)}) --`);
  const w = Math.max(...costs.map((c) => c.spec.length));
  const modulesHead = bundled ? "" : "  modules";
  console.log(
    `${"module".padEnd(w)}  ${"+RSS".padStart(8)}  ${"+anon".padStart(8)}${modulesHead}  loaded`,
  );
  for (const c of costs) {
    const count = bundled ? "" : `  ${String(c.modules).padStart(7)}`;
    console.log(
      `${c.spec.padEnd(w)}  ${mb(c.rssKb).padStart(8)}  ${mb(c.anonKb).padStart(8)}${count}  ${c.when}`,
    );
  }
  console.log(
    "(modules share what they load — Node's streams, zlib, the CommonJS loader — so the rows overlap)\n",
  );
}

/**
 * Idle memory with a connected mailbox, after a restart; null without Dovecot. `alone`: once
 * Dovecot sees the mailbox in IDLE, the server asked nothing since it started (a home server with
 * no browser open, most of the day; the target is read against this); `restarted`: then the
 * mailbox's status asked as the Account page does (its routes, their schemas).
 */
async function mailboxIdle(): Promise<{ connected: Run; restarted: Run; alone: Mem } | null> {
  if (!fs.existsSync(DOVECOT_BIN)) return null;
  const dc = await startBenchDovecot();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-"));
  try {
    let token = "";
    const env = imapEnv(dc);
    // The user connects the mailbox (the run's memory is read once it idles), then the server
    // starts again on that folder: the supervisor connects at start, as after any restart.
    const connected = await oneRun(RUNS + 1, {
      measureMemory: true,
      dataDir,
      env,
      whileUp: async (base) => {
        token = await registerUser(base);
        await connectMailbox(base, token);
      },
    });
    let alone: Mem | null = null;
    const restarted = await oneRun(RUNS + 2, {
      measureMemory: true,
      dataDir,
      env,
      whileUp: async (base, pid) => {
        await waitForDovecotIdle(dc);
        await Bun.sleep(IDLE_MS);
        alone = readMem(pid);
        await waitForIdle(base, token);
      },
    });
    if (!alone) throw new BenchError("could not read the server's memory (needs Linux /proc)");
    return { connected, restarted, alone };
  } finally {
    await dc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What a user opening the orders list costs the server, in one run with no mailbox: RSS once the
 * list's own requests were answered (the user, the list), then once the server also drew the
 * page for the early script (GET /api/first-screen: React DOM's server renderer and the web
 * app's modules, loaded with that first request and kept; README "The first screen").
 */
async function firstScreenMemory(): Promise<{ listed: Mem; drawn: Mem; drawnStatus: number }> {
  let listed: Mem | null = null;
  let drawn: Mem | null = null;
  let drawnStatus = 0;
  await oneRun(RUNS + 3, {
    measureMemory: false,
    whileUp: async (base, pid) => {
      const token = await registerUser(base);
      await call(base, "PATCH", "/api/user/timezone", token, { timezone: "Europe/Berlin" });
      for (let i = 0; i < 12; i++) {
        await call(base, "POST", "/api/orders", token, {
          productname: `Bench Kettle ${i}`,
          asin: `B0BENCHK${String(i).padStart(2, "0")}`,
        });
      }
      const auth = { Authorization: `Bearer ${token}` };
      for (const url of ["/api/user/data", "/api/orders?status=all&limit=10&offset=0"]) {
        await (await fetch(base + url, { headers: auth })).arrayBuffer();
      }
      await Bun.sleep(IDLE_MS);
      listed = readMem(pid);
      const res = await fetch(
        `${base}/api/first-screen?path=/orders&search=status%3Dall&language=en&width=390&height=844`,
        { headers: auth },
      );
      drawnStatus = res.status;
      await res.arrayBuffer();
      await Bun.sleep(IDLE_MS);
      drawn = readMem(pid);
    },
  });
  if (!listed || !drawn)
    throw new BenchError("could not read the server's memory (needs Linux /proc)");
  return { listed, drawn, drawnStatus };
}

async function main() {
  const bunVersion = Bun.spawnSync([BUN, "--version"]).stdout.toString().trim();
  const load = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ");
  if (!FROM_SOURCE) await buildServer();
  console.log("== startup benchmark ==");
  console.log(`command:  bun run bench/startup.bench.ts`);
  console.log(
    `measures: ${path.relative(ROOT, BUN) || BUN} ${SERVER_ARGS.join(" ")}  (cwd ${ROOT})`,
  );
  console.log(
    `machine:  bun ${bunVersion}, ${os.platform()} ${os.arch()}, ${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, ${new Date().toISOString()}, load ${load()}`,
  );
  if (!fs.existsSync(path.join(ROOT, "dist", "index.html"))) {
    console.log(
      "note:     dist/index.html is missing (run `npm run build`); /api/health works without it",
    );
  }
  console.log("");

  const modules = process.argv.includes("--no-modules")
    ? null
    : await measureModuleCosts(BUN, { bundled: !FROM_SOURCE });
  if (modules) printModuleTable(modules.bare, modules.costs, !FROM_SOURCE);

  const runs: Run[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const run = await oneRun(i, { measureMemory: i === RUNS });
    runs.push(run);
    const mem = run.mem ? `, idle RSS ${mb(run.mem.rssKb)}` : "";
    console.log(
      `run ${i}: start ${ms(run.startMs)}, shutdown ${ms(run.shutdownMs)} (exit ${run.exitCode})${mem}`,
    );
  }
  const opened = await firstScreenMemory();
  const mailbox = await mailboxIdle();
  if (mailbox) {
    for (const [what, run] of [
      ["mailbox connected", mailbox.connected],
      ["restart, mailbox idling", mailbox.restarted],
    ] as const) {
      console.log(
        `${what}: start ${ms(run.startMs)}, shutdown ${ms(run.shutdownMs)} (exit ${run.exitCode}), idle RSS ${run.mem ? mb(run.mem.rssKb) : "?"}`,
      );
    }
  }

  const start = stats(runs.map((r) => r.startMs));
  const shutdown = stats(runs.map((r) => r.shutdownMs));
  const idle = runs[runs.length - 1]!.mem;
  const withMailbox = mailbox?.alone;
  const withPolling = mailbox?.restarted.mem;

  console.log("");
  console.log(
    `cold start (spawn -> first 200 /api/health): min ${ms(start.min)}, median ${ms(start.median)}, max ${ms(start.max)}  (load ${load()})`,
  );
  console.log(
    `  target median < ${TARGET_START_MS} ms: ${verdict(start.median < TARGET_START_MS)}`,
  );
  if (idle) {
    console.log(`idle RSS ${IDLE_MS / 1000} s after start, no users: ${memLine(idle)}`);
    console.log(`  target <= ${TARGET_RSS_MB} MB: ${verdict(idle.rssKb / 1024 <= TARGET_RSS_MB)}`);
  } else {
    console.log("idle RSS: not available (needs Linux /proc)");
  }
  if (withMailbox) {
    console.log(
      `idle RSS ${IDLE_MS / 1000} s after the mailbox idles (restart, one mailbox in IDLE, no request since): ${memLine(withMailbox)}`,
    );
    console.log(
      `  target <= ${TARGET_RSS_MB} MB: ${verdict(withMailbox.rssKb / 1024 <= TARGET_RSS_MB)}`,
    );
    if (withPolling) {
      console.log(
        `  (then ${IDLE_MS / 1000} s after the page asks the mailbox's status: ${memLine(withPolling)})`,
      );
    }
    const first = mailbox?.connected.mem;
    if (first) console.log(`  (just after connecting it, same server: ${memLine(first)})`);
  } else {
    console.log(`idle RSS with a mailbox: not measured (Dovecot is missing: ${DOVECOT_INSTALL})`);
  }
  console.log(
    `RSS ${IDLE_MS / 1000} s after a user opens the orders list (its requests answered): ${memLine(opened.listed)}`,
  );
  console.log(
    `  (then ${IDLE_MS / 1000} s after the server also drew the page, GET /api/first-screen ${opened.drawnStatus}: ${memLine(opened.drawn)})`,
  );
  console.log(
    `shutdown (SIGTERM -> exit 0): min ${ms(shutdown.min)}, median ${ms(shutdown.median)}, max ${ms(shutdown.max)}`,
  );
  console.log(
    `  target max < ${TARGET_SHUTDOWN_MS} ms: ${verdict(shutdown.max < TARGET_SHUTDOWN_MS)}`,
  );

  const outDir = path.join(ROOT, "bench", "out");
  fs.mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, "startup.json");
  fs.writeFileSync(
    outFile,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        bun: bunVersion,
        loadAverage: os.loadavg(),
        command: [path.relative(ROOT, BUN) || BUN, ...SERVER_ARGS].join(" "),
        runs,
        startMs: start,
        shutdownMs: shutdown,
        idle: idle ?? null,
        idleWithMailbox: withMailbox ?? null,
        idleWithMailboxAfterStatus: withPolling ?? null,
        mailboxRuns: mailbox,
        moduleCosts: modules,
        targets: {
          startMedianMs: TARGET_START_MS,
          idleRssMb: TARGET_RSS_MB,
          shutdownMs: TARGET_SHUTDOWN_MS,
        },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nfigures saved to ${path.relative(ROOT, outFile)}`);
}

try {
  await main();
} catch (err) {
  if (err instanceof BenchError) {
    console.error(`\nFAIL: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
