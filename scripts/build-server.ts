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
import { lazyFile, lazyStandInsPlugin, SYNC_STAND_IN_LIBRARIES } from "./lazy-stand-ins.ts";

const root = path.resolve(import.meta.dir, "..");
export const SERVER_OUTDIR = path.join(root, "dist-server");
export const SERVER_ENTRY = path.join(SERVER_OUTDIR, "main.js");

/**
 * Libraries our code loads with their first use (`lazyModule(() => require(...))`, the mail
 * reader's HTML parser): each is bundled on its own into dist-server/lazy/ and the server's code
 * requires that file, so their code is not in the chunks every start reads and parses (1.6 MB
 * resident when they were; bench/startup.bench.ts). Only imports from src/ are redirected; a
 * library's own dependencies keep theirs.
 */
export const LAZY_LIBRARIES = [
  "web-push",
  "ts-tracking-number",
  "fflate",
  "csv-parse/sync",
  "@fastify/busboy",
  "htmlparser2",
  // imapflow's charset decoders, behind its stand-ins (scripts/lazy-stand-ins.ts)
  ...SYNC_STAND_IN_LIBRARIES,
];

/** Builds each of LAZY_LIBRARIES into `outdir`/lazy/, CommonJS, as `require` of it returns. */
export async function buildLazyLibraries(outdir: string): Promise<Bun.BuildOutput> {
  const entries = fs.mkdtempSync(path.join(root, "node_modules", ".lazy-entries-"));
  try {
    const entrypoints = LAZY_LIBRARIES.map((spec) => {
      const file = path.join(entries, lazyFile(spec).replace("lazy/", ""));
      fs.writeFileSync(file, `module.exports = require(${JSON.stringify(spec)});\n`);
      return file;
    });
    return await Bun.build({
      entrypoints,
      outdir: path.join(outdir, "lazy"),
      root: entries,
      target: "bun",
      format: "cjs",
      minify: { whitespace: true, syntax: true, identifiers: false },
      sourcemap: "none",
    });
  } finally {
    fs.rmSync(entries, { recursive: true, force: true });
  }
}

/** Our code's imports of LAZY_LIBRARIES go to their files in lazy/ (outside the bundle). */
function lazyLibrariesPlugin(): Bun.BunPlugin {
  const src = `${path.join(root, "src")}${path.sep}`;
  return {
    name: "lazy-libraries",
    setup(build) {
      for (const spec of LAZY_LIBRARIES) {
        const filter = new RegExp(`^${spec.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")}$`);
        build.onResolve({ filter }, (args) =>
          args.importer.startsWith(src)
            ? { path: `./${lazyFile(spec)}`, external: true }
            : undefined,
        );
      }
    },
  };
}

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
  plugins: [lazyStandInsPlugin(), lazyLibrariesPlugin()],
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
  const lazy = await buildLazyLibraries(SERVER_OUTDIR);
  for (const r of [result, lazy]) {
    if (r.success) continue;
    for (const m of r.logs) console.error(m);
    throw new Error("the server bundle failed to build");
  }
  const kb = [...result.outputs, ...lazy.outputs].reduce((n, o) => n + o.size, 0);
  return `server built in ${Math.round(performance.now() - started)} ms: ${path.relative(root, SERVER_ENTRY)} (+ chunks, ${(kb / 1024).toFixed(0)} KB)`;
}

if (import.meta.main) console.log(await buildServer());
