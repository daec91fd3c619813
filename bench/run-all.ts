/**
 * Runs every benchmark in turn, each in its own bun process (so one cannot warm up the next):
 *
 *   npm run bench          (= bun run bench/run-all.ts)
 *
 * Benchmarks print PASS/MISS against their targets and never fail on time. This exits 1 only if a
 * benchmark could not measure (for example no dist/: run `npm run build` first).
 */
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "..");
const BENCHES = [
  "bench/startup.bench.ts",
  "bench/bundle-size.bench.ts",
  "bench/orders.bench.ts",
  "bench/orders-household.bench.ts",
  "bench/backfill.bench.ts",
  "bench/imap-faults.bench.ts",
  "bench/media-upload.bench.ts",
  "bench/tracking-update-all.bench.ts",
  "bench/db-lock.bench.ts",
  "bench/vine.bench.ts",
  "bench/alerts-notify.bench.ts",
  "bench/soak.bench.ts",
  "bench/first-screen.bench.ts",
];

const failed: string[] = [];
for (const [i, bench] of BENCHES.entries()) {
  if (i > 0) console.log("");
  const proc = Bun.spawn([process.execPath, "run", bench], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const code = await proc.exited;
  if (code !== 0) failed.push(`${bench} (exit ${code})`);
}

console.log("");
if (failed.length) {
  console.log(`benchmarks that could not measure: ${failed.join(", ")}`);
  process.exit(1);
}
console.log(`all ${BENCHES.length} benchmarks ran (see PASS/MISS above; figures in bench/out/)`);
