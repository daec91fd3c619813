/**
 * Bundles the server into dist-server/ (what `npm start` and the Docker image run): one minified
 * entry plus chunks for what loads on first use. Against `bun run src/main.ts` it starts faster
 * and idles smaller (no thousand modules to resolve and keep; bench/startup.bench.ts prints both).
 * The folder sits one level below the repository, as src/ does, so `config.ts` finds the
 * migrations and the web app from `import.meta.dir` alike. Never inside dist/: that folder is
 * served to browsers.
 */
import fs from "node:fs";
import path from "node:path";
import { lazyStandInsPlugin } from "./lazy-stand-ins.ts";

const root = path.resolve(import.meta.dir, "..");
export const SERVER_OUTDIR = path.join(root, "dist-server");
export const SERVER_ENTRY = path.join(SERVER_OUTDIR, "main.js");

/**
 * How the server is bundled (also what test/lazy-modules.test.ts bundles imapflow with): names
 * kept, so a stack trace in the log still says which function failed; no source map (Bun reads it
 * at start: 3 MB resident); what imapflow imports but needs only for some messages or a proxy
 * loads with its first use (scripts/lazy-stand-ins.ts).
 */
export const SERVER_BUILD_OPTIONS = {
  target: "bun",
  minify: { whitespace: true, syntax: true, identifiers: false },
  splitting: true,
  sourcemap: "none",
  plugins: [lazyStandInsPlugin()],
} satisfies Partial<Bun.BuildConfig>;

/** Builds the bundle; returns the line `npm run build` prints. */
export async function buildServer(): Promise<string> {
  fs.rmSync(SERVER_OUTDIR, { recursive: true, force: true });
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [path.join(root, "src/main.ts")],
    outdir: SERVER_OUTDIR,
    ...SERVER_BUILD_OPTIONS,
  });
  if (!result.success) {
    for (const m of result.logs) console.error(m);
    throw new Error("the server bundle failed to build");
  }
  const kb = result.outputs.reduce((n, o) => n + o.size, 0);
  return `server built in ${Math.round(performance.now() - started)} ms: ${path.relative(root, SERVER_ENTRY)} (+ chunks, ${(kb / 1024).toFixed(0)} KB)`;
}

if (import.meta.main) console.log(await buildServer());
