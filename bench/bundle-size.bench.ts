/**
 * Bundle-size benchmark (not a test): what a browser downloads on the first visit. Reads the built
 * web app in dist/, finds the JS and CSS that index.html references (script src, stylesheet and
 * modulepreload links, plus the chunks those scripts import statically), and prints raw and gzip
 * sizes (Bun.gzipSync, default level) per file and in total.
 *
 * Target (PASS/MISS, never a non-zero exit): first-load JS < 100 KB gzipped (1 KB = 1024 bytes).
 * It exits 1 only when there is nothing to measure (no dist/index.html: run `npm run build`).
 *
 *   bun run bench/bundle-size.bench.ts [--dist <folder>]      (default folder: dist/)
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "..");
const TARGET_JS_GZIP_KB = 100;

type Kind = "js" | "css";
type Entry = { file: string; kind: Kind; raw: number; gzip: number; via: string };

function parseArgs(): string {
  const i = process.argv.indexOf("--dist");
  if (i === -1) return path.join(ROOT, "dist");
  const dir = process.argv[i + 1];
  if (!dir) {
    console.error("--dist needs a folder");
    process.exit(1);
  }
  return path.resolve(dir);
}

/** The dist-relative file a URL in the page points at, or null for external URLs. */
function localPath(url: string, fromFile: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("//")) return null;
  const clean = url.split(/[?#]/)[0] ?? "";
  if (!clean) return null;
  const rel = clean.startsWith("/")
    ? clean.slice(1)
    : path.posix.join(path.posix.dirname(fromFile), clean);
  return path.posix.normalize(decodeURIComponent(rel));
}

/** URLs of the JS and CSS that index.html loads up front. */
async function pageAssets(html: string): Promise<{ url: string; kind: Kind; via: string }[]> {
  const found: { url: string; kind: Kind; via: string }[] = [];
  const rewriter = new HTMLRewriter()
    .on("script[src]", {
      element(el) {
        const src = el.getAttribute("src");
        if (src) found.push({ url: src, kind: "js", via: "<script>" });
      },
    })
    .on("link[href]", {
      element(el) {
        const href = el.getAttribute("href");
        const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
        const as = (el.getAttribute("as") ?? "").toLowerCase();
        if (!href) return;
        if (rel.includes("stylesheet"))
          found.push({ url: href, kind: "css", via: "<link stylesheet>" });
        else if (rel.includes("modulepreload"))
          found.push({ url: href, kind: "js", via: "<link modulepreload>" });
        else if (rel.includes("preload") && (as === "script" || as === "style"))
          found.push({ url: href, kind: as === "script" ? "js" : "css", via: "<link preload>" });
      },
    });
  await rewriter.transform(new Response(html)).text();
  return found;
}

/** Static imports/re-exports of other files in a (minified) ES module; dynamic import() is lazy. */
function staticImports(code: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s;}])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+)["']/g;
  for (const m of code.matchAll(re)) if (m[1]) out.push(m[1]);
  return out;
}

/** Shown relative to the repo when inside it, else absolute. */
const show = (p: string) => (p.startsWith(ROOT + path.sep) ? path.relative(ROOT, p) : p);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const dist = parseArgs();
  const indexFile = path.join(dist, "index.html");
  console.log("== bundle-size benchmark ==");
  console.log(
    `command:  bun run bench/bundle-size.bench.ts${process.argv.includes("--dist") ? ` --dist ${dist}` : ""}`,
  );
  console.log(`measures: ${show(dist)}/ (first load of index.html)`);
  console.log(`machine:  bun ${Bun.version}, ${new Date().toISOString()}`);

  if (!fs.existsSync(indexFile)) {
    const other = fs.existsSync(dist)
      ? fs.readdirSync(dist).filter((f) => f.endsWith(".html"))
      : [];
    console.error(
      `\nFAIL: ${show(indexFile)} not found. Build the web app first: npm run build` +
        (other.length ? `\n(dist has ${other.join(", ")}, but the server serves index.html)` : ""),
    );
    process.exit(1);
  }

  const entries: Entry[] = [];
  const missing: string[] = [];
  const external: string[] = [];
  const seen = new Set<string>();
  const queue: { file: string; kind: Kind; via: string }[] = [];

  for (const a of await pageAssets(fs.readFileSync(indexFile, "utf8"))) {
    const file = localPath(a.url, "index.html");
    if (file === null) external.push(a.url);
    else queue.push({ file, kind: a.kind, via: a.via });
  }
  while (queue.length) {
    const item = queue.shift()!;
    if (seen.has(item.file)) continue;
    seen.add(item.file);
    const abs = path.join(dist, item.file);
    if (!abs.startsWith(dist + path.sep) || !fs.existsSync(abs)) {
      missing.push(item.file);
      continue;
    }
    const bytes = fs.readFileSync(abs);
    entries.push({
      file: item.file,
      kind: item.kind,
      raw: bytes.byteLength,
      gzip: Bun.gzipSync(bytes).byteLength,
      via: item.via,
    });
    if (item.kind === "js") {
      for (const spec of staticImports(bytes.toString("utf8"))) {
        const dep = localPath(spec, item.file);
        if (dep?.endsWith(".js") || dep?.endsWith(".mjs")) {
          queue.push({ file: dep, kind: "js", via: `import from ${item.file}` });
        }
      }
    }
  }

  // The early script (web/preload.ts) is inline in index.html: counted as the page's own JS.
  for (const m of fs
    .readFileSync(indexFile, "utf8")
    .matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    const code = m[1]?.trim();
    if (!code || /\bsrc=/.test(m[0])) continue;
    const bytes = new TextEncoder().encode(code);
    entries.unshift({
      file: "(inline in index.html)",
      kind: "js",
      raw: bytes.byteLength,
      gzip: Bun.gzipSync(bytes).byteLength,
      via: "<script> (web/preload.ts)",
    });
  }

  // web/preload.ts also fetches the reader's language's first catalog part with the bundle: an
  // English reader's is counted in the first load; every language's is listed below.
  const catalogParts = fs
    .readdirSync(dist)
    .filter((f) => /^[a-z]{2}-(first|later)-[a-z0-9]+\.js$/.test(f))
    .sort()
    .map((f) => {
      const bytes = fs.readFileSync(path.join(dist, f));
      return { file: f, raw: bytes.byteLength, gzip: Bun.gzipSync(bytes).byteLength };
    });
  const english = catalogParts.find((c) => c.file.startsWith("en-first-"));
  if (english) entries.push({ ...english, kind: "js", via: "catalog (web/preload.ts)" });

  console.log("");
  const width = Math.max(20, ...entries.map((e) => e.file.length));
  console.log(`${"file".padEnd(width)}  kind  ${"raw".padStart(10)}  ${"gzip".padStart(10)}  via`);
  for (const e of entries) {
    console.log(
      `${e.file.padEnd(width)}  ${e.kind.padEnd(4)}  ${kb(e.raw).padStart(10)}  ${kb(e.gzip).padStart(10)}  ${e.via}`,
    );
  }
  const sum = (kind: Kind | null, key: "raw" | "gzip") =>
    entries.filter((e) => kind === null || e.kind === kind).reduce((n, e) => n + e[key], 0);
  for (const [label, kind] of [
    ["total JS", "js"],
    ["total CSS", "css"],
    ["total", null],
  ] as const) {
    console.log(
      `${label.padEnd(width)}        ${kb(sum(kind, "raw")).padStart(10)}  ${kb(sum(kind, "gzip")).padStart(10)}`,
    );
  }

  const firstLoad = new Set(entries.map((e) => e.file));
  const rest = fs
    .readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dist, path.join(d.parentPath, d.name)).split(path.sep).join("/"))
    // The precompressed copies (.gz, .br) and the build's lists are not files a browser loads.
    .filter(
      (f) => f !== "index.html" && !firstLoad.has(f) && !/\.(gz|br)$|^[a-z-]+\.json$/.test(f),
    );
  if (rest.length) {
    const restBytes = rest.reduce((n, f) => n + fs.statSync(path.join(dist, f)).size, 0);
    console.log(
      `\nnot on first load: ${rest.length} other file(s) in dist, ${kb(restBytes)} raw (lazy chunks, fonts, images)`,
    );
  }
  for (const f of missing) console.log(`WARNING: index.html references ${f}, which is not in dist`);
  for (const u of external) console.log(`note: external URL not counted: ${u}`);
  if (!entries.some((e) => e.kind === "js")) {
    console.log("WARNING: index.html loads no JS file: is dist/ a real build (npm run build)?");
  }

  const jsGzip = sum("js", "gzip");
  if (catalogParts.length) {
    console.log(
      "\ncatalogs (the reader's first part with the bundle, the later part after the first screen):",
    );
    for (const c of catalogParts) {
      console.log(
        `  ${c.file.padEnd(width - 2)}        ${kb(c.raw).padStart(10)}  ${kb(c.gzip).padStart(10)}`,
      );
    }
    for (const c of catalogParts.filter((p) => p.file.includes("-first-"))) {
      const total = jsGzip - (english?.gzip ?? 0) + c.gzip;
      console.log(`first-load JS gzip for a reader of ${c.file.slice(0, 2)}: ${kb(total)}`);
    }
  }
  // What the server sends a browser that accepts Brotli (over https, or from localhost): the
  // build's .br copies (the inline script travels inside index.html).
  const brotli = (kind: Kind) =>
    entries
      .filter((e) => e.kind === kind)
      .reduce((n, e) => {
        const copy = path.join(dist, `${e.file}.br`);
        return n + (fs.existsSync(copy) ? fs.statSync(copy).size : e.gzip);
      }, 0);
  console.log(
    `over the wire with Brotli (the build's .br copies): JS ${kb(brotli("js"))}, CSS ${kb(brotli("css"))}`,
  );
  console.log("");
  console.log(
    `first-load JS gzip: ${kb(jsGzip)}  target < ${TARGET_JS_GZIP_KB} KB: ${jsGzip < TARGET_JS_GZIP_KB * 1024 ? "PASS" : "MISS"}`,
  );

  const outDir = path.join(ROOT, "bench", "out");
  fs.mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, "bundle-size.json");
  fs.writeFileSync(
    outFile,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        dist: show(dist),
        files: entries,
        totals: {
          jsRaw: sum("js", "raw"),
          jsGzip,
          cssRaw: sum("css", "raw"),
          cssGzip: sum("css", "gzip"),
        },
        missing,
        targets: { firstLoadJsGzipKb: TARGET_JS_GZIP_KB },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`figures saved to ${path.relative(ROOT, outFile)}`);
}

await main();
