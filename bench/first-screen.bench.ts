/**
 * First screen on a phone (not a test): a cold load of the orders list in Chromium with the phone
 * profile — 390x844, CPU slowed 4x (Emulation.setCPUThrottlingRate), 150 ms latency
 * and 1.6 Mbit/s down / 750 kbit/s up (Network.emulateNetworkConditions), cache disabled — against
 * the real server (`bun run src/main.ts` on the built dist/, fresh DATA_DIR, 40 orders).
 *
 * Measures, over RUNS cold loads of /orders?status=all by a signed-in user (a returning one: the
 * time zone is saved): the time from the start of navigation until the first order card is in the
 * page (a MutationObserver installed before any script), whether those cards were the server's
 * page (README, "The first screen") or the app's, and when each request of the waterfall started
 * (the user check, the page chunk, the list), so a serial chain shows. Target: median < 1.5 s. Never fails on time; exits 1 only when it
 * cannot measure (no dist/, no Chromium, the server does not start).
 *
 *   bun run build && bun run bench/first-screen.bench.ts       (also part of npm run bench)
 *
 * `--against DIR`: also loads another checkout's build (DIR, built with `bun run build` there; its
 * server runs from its source) and alternates the two run by run (A B B A …, RUNS each) in the
 * same seconds, so a busy shared machine weighs on both alike; prints both medians.
 *
 * `--trace`: each run's main thread (a Chrome trace): the median phases and the last run's tasks.
 * `--profile`: also V8's CPU samples, each long task's top functions (`GV_SOURCEMAP=1 bun run
 * build` names them), and the trace in bench/out/first-screen-trace-<side>.json for DevTools.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { type AppProcess, startApp } from "../test/support/app-process.ts";
import {
  busyMs,
  cpuSamples,
  FrameNamer,
  inclusiveTimes,
  PROFILE_CATEGORY,
  type Sample,
  selfTimes,
  selfTimesByModule,
} from "./support/cpu-profile.ts";
import {
  firstScreenPhases,
  mainThread,
  mainThreadTasks,
  type Phases,
  printTasks,
  startTrace,
  type Task,
} from "./support/main-thread.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const RUNS = Number(process.env.RUNS ?? 5);
/**
 * `--trace`: also record each run's main thread (a Chrome trace): prints the median phases
 * (index.js's evaluation, from there to the render, the render) and the last run's tasks.
 * `TRACE_CATS=a,b`: more trace categories (for bench/out/first-screen-trace-*.json).
 */
/**
 * `--profile`: the trace also holds V8's CPU samples; prints where each long task's script time
 * went, by function (named through the build's source maps with `GV_SOURCEMAP=1 bun run build`).
 */
const CPU_PROFILE = process.argv.includes("--profile");
const TRACE = CPU_PROFILE || process.argv.includes("--trace");
const ORDERS = 40;
const TARGET_MS = 1500;
const PROFILE = {
  viewport: { width: 390, height: 844 },
  cpuSlowdown: 4,
  latencyMs: 150,
  downKbit: 1600,
  upKbit: 750,
};
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

function fail(message: string): never {
  console.error(`first-screen bench: ${message}`);
  process.exit(1);
}
if (!fs.existsSync(path.join(ROOT, "dist", "index.html"))) fail("no dist/: run `bun run build`");
if (!fs.existsSync(CHROMIUM)) fail(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

const againstAt = process.argv.indexOf("--against");
const AGAINST = againstAt > 0 ? path.resolve(process.argv[againstAt + 1] ?? "") : null;
if (AGAINST && !fs.existsSync(path.join(AGAINST, "dist", "index.html"))) {
  fail(`no dist/ in ${AGAINST}: run \`bun run build\` there`);
}

/** A server under test: this checkout ("this"), or the one given with --against ("other"). */
type Target = { label: "this" | "other"; app: AppProcess; dataDir: string; token: string };

async function startTarget(label: Target["label"], root?: string): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-first-"));
  const app = await startApp(
    { DATA_DIR: dataDir, LOG_LEVEL: "warn", ALLOW_REGISTRATION: "true" },
    root,
  ).catch((err: Error) => fail(`the server did not start: ${err.message}`));
  const token = await app.register("bench@example.test");
  // A returning user: the app saved the browser's zone on the first visit (web/hooks/useTimeZone.ts).
  const zone = await app.call("PATCH", "/api/user/timezone", {
    token,
    body: { timezone: "America/Chicago" },
  });
  if (zone.status !== 200) fail(`saving the time zone answered ${zone.status}`);
  for (let i = 0; i < ORDERS; i++) {
    const res = await app.call("POST", "/api/orders", {
      token,
      body: {
        productname: `Bench Product ${i} with a name as long as Amazon's usually are`,
        asin: `B0BENCH${String(i).padStart(3, "0")}`,
        status: i % 3 === 0 ? "Shipped" : "Ordered",
      },
    });
    if (res.status !== 201) fail(`creating an order answered ${res.status}`);
  }
  return { label, app, dataDir, token };
}

/** Per request: started, last byte (ms after navigation start), bytes over the wire (body). */
type Run = {
  rowsMs: number;
  /** The first cards were the server's page (web/preload.ts shows it inert), not the app's. */
  fromServer: boolean;
  requests: Record<string, [number, number, number]>;
  /** --trace: the main thread's phases of this run (support/main-thread.ts). */
  phases?: Phases | null;
};

async function main(targets: Target[]) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const runs = new Map<Target, Run[]>(targets.map((t) => [t, []]));
  /** Per target, its last run's main-thread tasks and CPU samples (--trace, --profile). */
  const traced = new Map<Target, { tasks: Task[]; samples: Sample[]; navTs: number }>();
  try {
    for (let r = 0; r < RUNS * targets.length; r++) {
      // A B B A A B …: neither side always goes first.
      const target = targets[Math.floor((r + 1) / 2) % targets.length]!;
      const { base } = target.app;
      const { token } = target;
      const context = await browser.newContext({ viewport: PROFILE.viewport, isMobile: true });
      await context.addInitScript((t) => {
        localStorage.setItem("auth-token", t);
        const w = window as unknown as { __rowsAt?: number; __rowsFromServer?: boolean };
        new MutationObserver((_, obs) => {
          if (document.querySelector("article.order-card")) {
            w.__rowsAt = performance.now();
            w.__rowsFromServer = document.getElementById("root")?.inert === true;
            obs.disconnect();
            console.debug("first-screen:rows");
          }
        }).observe(document, { childList: true, subtree: true });
      }, token);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: PROFILE.latencyMs,
        downloadThroughput: (PROFILE.downKbit * 1000) / 8,
        uploadThroughput: (PROFILE.upKbit * 1000) / 8,
      });
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: PROFILE.cpuSlowdown });
      // Every run (its phases); each target's last one is printed task by task.
      const lastOfTarget = r >= (RUNS - 1) * targets.length;
      const stopTrace = TRACE
        ? await startTrace(cdp, [
            ...(CPU_PROFILE && lastOfTarget ? [PROFILE_CATEGORY] : []),
            ...(process.env.TRACE_CATS?.split(",") ?? []),
          ])
        : null;
      // The rows are awaited through the console, not page.waitForFunction: that would evaluate
      // Playwright's injected script in the page (about 100 ms of a 4x slower CPU) while the page
      // is still loading, and the bench would measure its own harness.
      const rowsShown = new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error("no order card within 60 s")), 60_000);
        page.on("console", (msg) => {
          if (msg.text() === "first-screen:rows") resolve(clearTimeout(t));
        });
      });
      await page.goto(`${base}/orders?status=all`, { waitUntil: "commit" });
      await rowsShown;
      const run: Run = await page.evaluate(() => {
        const requests: Record<string, [number, number, number]> = {};
        for (const e of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
          const u = new URL(e.name);
          // Hashes dropped, but every shared chunk (all named index-<hash>.js) keeps a line.
          let name = u.pathname.startsWith("/api/")
            ? u.pathname
            : u.pathname.replace(/-[a-z0-9]+\.(js|css)$/, ".$1");
          for (let n = 2; requests[name]; n++) name = name.replace(/( #\d+)?$/, ` #${n}`);
          requests[name] = [Math.round(e.startTime), Math.round(e.responseEnd), e.encodedBodySize];
        }
        const w = window as { __rowsAt?: number; __rowsFromServer?: boolean };
        return {
          rowsMs: Math.round(w.__rowsAt ?? -1),
          fromServer: w.__rowsFromServer === true,
          requests,
        };
      });
      runs.get(target)!.push(run);
      const events = stopTrace ? await stopTrace() : null;
      if (events) run.phases = firstScreenPhases(events, run.rowsMs);
      if (events && lastOfTarget) {
        const main = mainThread(events);
        if (CPU_PROFILE) {
          // The whole trace, for Chrome DevTools' Performance panel (Load profile…).
          fs.mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
          fs.writeFileSync(
            path.join(ROOT, "bench", "out", `first-screen-trace-${target.label}.json`),
            JSON.stringify({ traceEvents: events }),
          );
        }
        traced.set(target, {
          tasks: mainThreadTasks(events).filter((t) => t.at <= run.rowsMs),
          samples: CPU_PROFILE && main ? cpuSamples(events, main.pid) : [],
          navTs: main?.navTs ?? 0,
        });
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }

  console.log("first screen on a phone: cold load of /orders?status=all, first order card shown");
  console.log(
    `  profile: ${PROFILE.viewport.width}x${PROFILE.viewport.height}, CPU ${PROFILE.cpuSlowdown}x slower, ${PROFILE.latencyMs} ms latency, ${PROFILE.downKbit / 1000} Mbit/s down, cache off; ${ORDERS} orders; ${os.cpus().length} CPUs`,
  );
  const medians: Record<string, number> = {};
  for (const target of targets) {
    const mine = runs.get(target)!;
    const sorted = mine.map((r) => r.rowsMs).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    medians[target.label] = median;
    const last = mine[mine.length - 1]!;
    if (targets.length > 1) {
      console.log(
        `  ${target.label === "this" ? `this checkout (${ROOT})` : `--against ${AGAINST}`}:`,
      );
    }
    console.log(
      `  rows shown: min ${sorted[0]} ms, median ${median} ms, max ${sorted.at(-1)} ms (runs: ${mine.map((r) => `${r.rowsMs}${r.fromServer ? "s" : ""}`).join(", ")}; s: the server's page)`,
    );
    const phases = mine.map((r) => r.phases).filter((p): p is Phases => Boolean(p));
    if (phases.length) {
      const med = (k: keyof Phases) => {
        const v = phases.map((p) => p[k]).sort((a, b) => a - b);
        return v[Math.floor(v.length / 2)];
      };
      console.log(
        `  main thread, median of ${phases.length} traced runs: index.js compiled ${med("compile")} ms, evaluated ${med("evaluate")} ms, then ${med("toRender")} ms to the render, render ${med("render")} ms (runs, compile/evaluate/to render/render: ${phases.map((p) => `${p.compile}/${p.evaluate}/${p.toRender}/${p.render}`).join(", ")})`,
      );
    }
    console.log(
      "  requests (ms after navigation start, last run): started → last byte, KB over the wire",
    );
    for (const [name, [at, end, bytes]] of Object.entries(last.requests).sort(
      (a, b) => a[1][0] - b[1][0],
    )) {
      const kb = `${(bytes / 1024).toFixed(1)} KB`;
      console.log(
        `    ${String(at).padStart(5)} → ${String(end).padStart(5)}  ${kb.padStart(8)}  ${name}`,
      );
    }
  }
  for (const target of targets) {
    const trace = traced.get(target);
    if (!trace) continue;
    const last = runs.get(target)!.at(-1)!;
    console.log(
      `  main thread until the rows (last run, ${target.label}, ${last.rowsMs} ms): start +duration, work`,
    );
    printTasks(trace.tasks);
    if (CPU_PROFILE) printProfile(trace, last.rowsMs, target.label === "this" ? ROOT : AGAINST!);
  }
  const median = medians.this!;
  console.log(`  ${median < TARGET_MS ? "PASS" : "MISS"} median < ${TARGET_MS} ms`);
  fs.mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, "bench", "out", "first-screen.json"),
    `${JSON.stringify(
      {
        profile: PROFILE,
        orders: ORDERS,
        runs: runs.get(targets[0]!),
        medianMs: median,
        targetMs: TARGET_MS,
        ...(AGAINST
          ? { against: { dir: AGAINST, runs: runs.get(targets[1]!), medianMs: medians.other } }
          : {}),
      },
      null,
      2,
    )}\n`,
  );
}

/** Where the script time went: each long task's top functions, then the whole load's. */
function printProfile(
  trace: { tasks: Task[]; samples: Sample[]; navTs: number },
  rowsMs: number,
  root: string,
) {
  const namer = new FrameNamer(path.join(root, "dist"));
  const line = ([name, ms]: [string, number]) => `        ${ms.toFixed(1).padStart(6)} ms  ${name}`;
  console.log("  CPU samples (self time) in each task of 20 ms or more:");
  for (const task of trace.tasks.filter((t) => t.ms >= 20)) {
    const busy = busyMs(trace.samples, task.ts, task.end);
    console.log(`    ${task.at} +${task.ms} ms (${Math.round(busy)} ms not idle)`);
    for (const top of selfTimes(trace.samples, task.ts, task.end, namer).slice(0, 12))
      console.log(line(top));
    if (task.ms >= 100) {
      console.log("      the app's functions, inclusive:");
      const app = (name: string) => / (web|src)\//.test(name);
      for (const top of inclusiveTimes(trace.samples, task.ts, task.end, namer, app).slice(0, 15))
        console.log(line(top));
    }
  }
  const end = trace.navTs + rowsMs * 1000;
  console.log(`  CPU samples until the rows (${rowsMs} ms), by module:`);
  for (const top of selfTimesByModule(trace.samples, trace.navTs, end, namer).slice(0, 20))
    console.log(line(top));
  console.log("  … by function:");
  for (const top of selfTimes(trace.samples, trace.navTs, end, namer).slice(0, 40))
    console.log(line(top));
}

const targets: Target[] = [];
try {
  targets.push(await startTarget("this"));
  if (AGAINST) targets.push(await startTarget("other", AGAINST));
  await main(targets);
} finally {
  for (const { app, dataDir } of targets) {
    app.proc.kill("SIGTERM");
    await app.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
