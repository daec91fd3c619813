/**
 * Review media upload benchmark (not a test): uploads a 100 MB MP4 (a valid ftyp header and
 * filler) to the real server process (`bun run src/main.ts`, fresh temp DATA_DIR, free port), as
 * the browser does (multipart, one `images` field), RUNS times, each to a new order.
 *
 * Prints, per run and as medians:
 * - growth of the server's resident memory during the upload: the highest VmRSS sampled every
 *   10 ms while the request runs, minus VmRSS just before it (Linux /proc; target < 30 MB);
 * - upload throughput (MB/s, request start to answer: streaming to a temp file, datasync, rename)
 *   beside two plain copies of the same file on the same disk: copyFile, and a 256 KB read/write
 *   loop with datasync (what the server does, minus HTTP and multipart).
 *
 * PASS/MISS against the memory target, never a non-zero exit on figures; exit 1 only when it
 * cannot measure (the server does not start, or the upload is refused).
 *
 *   bun run bench/media-upload.bench.ts        (or: npm run bench)
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startApp } from "../test/support/app-process.ts";
import { mp4Head } from "../test/support/media-files.ts";
import { procMem } from "./support/bench-utils.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const SIZE = 100 * 1024 * 1024;
const RUNS = 3;
const TARGET_GROWTH_MB = 30;
const MB = 1024 * 1024;

const rssKb = (pid: number) => (procMem(pid)?.rss ?? 0) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function writeVideo(file: string) {
  const fh = await fsp.open(file, "w");
  const chunk = new Uint8Array(MB);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 131) & 0xff;
  const head = mp4Head();
  const first = chunk.slice();
  first.set(head, 0);
  new DataView(first.buffer).setUint32(head.length, SIZE - head.length);
  first.set(new TextEncoder().encode("mdat"), head.length + 4);
  for (let written = 0; written < SIZE; written += MB)
    await fh.write(written === 0 ? first : chunk);
  await fh.close();
}

async function loopCopy(from: string, to: string) {
  const src = await fsp.open(from, "r");
  const dst = await fsp.open(to, "w");
  const buf = new Uint8Array(256 * 1024);
  for (;;) {
    const { bytesRead } = await src.read(buf, 0, buf.length, null);
    if (bytesRead === 0) break;
    await dst.write(buf, 0, bytesRead);
  }
  await dst.datasync();
  await dst.close();
  await src.close();
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-media-"));
const video = path.join(dataDir, "source.mp4");
const app = await startApp({
  DATA_DIR: path.join(dataDir, "data"),
  LOG_LEVEL: "warn",
  ALLOW_REGISTRATION: "true",
  TRUST_PROXY: "false",
});
const { base, proc } = app;

try {
  await writeVideo(video);
  const token = await app.register("bench@example.com");
  const auth = { authorization: `Bearer ${token}` };

  const runs: { growthMb: number; seconds: number; mbps: number; baseMb: number }[] = [];
  for (let r = 0; r < RUNS; r++) {
    const created = await fetch(`${base}/api/orders`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ productname: `Bench ${r}`, asin: "B0BENCH001", status: "Received" }),
    });
    const { orderid } = (await created.json()) as { orderid: number };
    Bun.gc(true);
    await Bun.sleep(500);
    const before = rssKb(proc.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssKb(proc.pid));
    }, 10);
    const form = new FormData();
    form.append("images", Bun.file(video, { type: "video/mp4" }), "bench.mp4");
    const t0 = performance.now();
    const res = await fetch(`${base}/api/orders/${orderid}/review/images`, {
      method: "POST",
      headers: auth,
      body: form,
    });
    const body = await res.text();
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssKb(proc.pid));
    if (res.status !== 200) throw new Error(`upload refused: ${res.status} ${body}`);
    runs.push({
      growthMb: (peak - before) / 1024,
      seconds,
      mbps: SIZE / MB / seconds,
      baseMb: before / 1024,
    });
  }

  const copies: { copyFile: number; loop: number }[] = [];
  for (let r = 0; r < RUNS; r++) {
    const a = path.join(dataDir, `copy-${r}.mp4`);
    let t = performance.now();
    await fsp.copyFile(video, a);
    const copyFile = SIZE / MB / ((performance.now() - t) / 1000);
    const b = path.join(dataDir, `loop-${r}.mp4`);
    t = performance.now();
    await loopCopy(video, b);
    const loop = SIZE / MB / ((performance.now() - t) / 1000);
    copies.push({ copyFile, loop });
    await fsp.rm(a);
    await fsp.rm(b);
  }

  console.log(
    "Review media upload: 100 MB MP4, multipart, to the real server (bun run src/main.ts)",
  );
  for (const [i, r] of runs.entries()) {
    console.log(
      `  run ${i + 1}: RSS ${r.baseMb.toFixed(1)} MB before, +${r.growthMb.toFixed(1)} MB peak during; ${r.seconds.toFixed(2)} s, ${r.mbps.toFixed(0)} MB/s`,
    );
  }
  const growth = median(runs.map((r) => r.growthMb));
  const up = median(runs.map((r) => r.mbps));
  const cf = median(copies.map((c) => c.copyFile));
  const lc = median(copies.map((c) => c.loop));
  console.log(
    `resident memory growth during upload (median): ${growth.toFixed(1)} MB  target < ${TARGET_GROWTH_MB} MB: ${growth < TARGET_GROWTH_MB ? "PASS" : "MISS"}`,
  );
  console.log(`upload throughput (median):                   ${up.toFixed(0)} MB/s`);
  console.log(
    `plain copy, same disk: copyFile ${cf.toFixed(0)} MB/s; 256 KB read/write + datasync ${lc.toFixed(0)} MB/s`,
  );
  fs.mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, "bench", "out", "media-upload.json"),
    `${JSON.stringify({ date: new Date().toISOString(), sizeBytes: SIZE, runs, copies, growthMb: growth, uploadMbps: up, copyFileMbps: cf, loopCopyMbps: lc, targetGrowthMb: TARGET_GROWTH_MB }, null, 2)}\n`,
  );
} catch (err) {
  console.error(`media-upload benchmark could not measure: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  proc.kill("SIGTERM");
  await proc.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
