/**
 * Run in a fresh bun by the startup benchmark: imports the module named on the command line (a
 * package name, or a path from the project root starting with "./"; none = bare bun), collects
 * garbage, and prints one JSON line: resident memory (total, anonymous, mapped from files) in KB
 * and how many modules are loaded.
 *
 *   bun bench/support/module-rss.ts [specifier]
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "../..");
const spec = process.argv[2];
if (spec) await import(spec.startsWith("./") ? path.join(ROOT, spec) : spec);
Bun.gc(true);
const status = fs.readFileSync("/proc/self/status", "utf8");
const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
const modules = Object.keys(require.cache).length;
console.log(
  JSON.stringify({ rssKb: kb("VmRSS"), anonKb: kb("RssAnon"), fileKb: kb("RssFile"), modules }),
);
