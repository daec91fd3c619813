/**
 * Run in a fresh bun by the startup benchmark: imports the module named on the command line (a
 * package name or a path from the project root; none = bare bun), collects garbage, and prints
 * one JSON line: resident memory and how many modules are loaded.
 *
 *   bun bench/support/module-rss.ts [specifier]
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "../..");
const spec = process.argv[2];
if (spec) {
  const target = spec.startsWith(".") ? path.join(ROOT, spec) : spec;
  await import(target);
}
Bun.gc(true);
const status = fs.readFileSync("/proc/self/status", "utf8");
const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
console.log(JSON.stringify({ spec: spec ?? null, rssKb, modules: Object.keys(require.cache).length }));
