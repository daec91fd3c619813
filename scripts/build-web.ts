/**
 * Builds the web app into dist/ with Bun's bundler (no Vite): hashed file names for assets,
 * minified. `npm start` runs this before the server. The app is React 19 with React DOM.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { RENDER_DIR } from "../src/features/first-screen/first-screen.service.ts";
import { IMMUTABLE_LIST, PAGE_SCRIPTS } from "../src/http/middleware/static.ts";
import { LANGUAGES } from "../src/i18n/languages.ts";
import { manifestPath } from "../src/i18n/manifest.ts";
import { translate } from "../src/i18n/translate.ts";
import { ROUTES } from "../web/routes.ts";
import { catalogPlugin } from "./catalog-plugin.ts";

const root = path.resolve(import.meta.dir, "..");
const outdir = path.join(root, "dist");
fs.rmSync(outdir, { recursive: true, force: true });

const started = performance.now();
const result = await Bun.build({
  plugins: [catalogPlugin],
  entrypoints: [path.join(root, "web/index.html")],
  outdir,
  minify: true,
  // GV_SOURCEMAP=1: .map files beside the chunks (not linked from them), so the first-screen
  // bench's --profile can name the app's and the libraries' functions; off in a normal build.
  sourcemap: process.env.GV_SOURCEMAP === "1" ? "external" : "none",
  target: "browser",
  splitting: true,
  // V8's explicit compile hint (Chromium 136+; other engines read a comment): every function of
  // a chunk is compiled on a background thread while it downloads. Lazily compiled, React DOM's
  // and the app's functions were compiled on the main thread when first called, about a third
  // of the first render and of the start before it on a slow phone (bench/first-screen.bench.ts
  // --profile: V8.CompileCode in the render's task).
  banner: "//# allFunctionsCalledOnLoad",
  publicPath: "/",
  naming: {
    entry: "[dir]/[name].[ext]",
    chunk: "[name]-[hash].[ext]",
    asset: "[name]-[hash].[ext]",
  },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
});
if (!result.success) {
  for (const message of result.logs) console.error(message);
  process.exit(1);
}
// The server's render of a signed-in first screen (web/server-render.tsx): the same app built
// for Bun into dist/render/, which the server loads when first asked (src/features/first-screen)
// and never sends to a browser. Its stylesheets are the page's, so they are left out here.
const serverRender = await Bun.build({
  plugins: [
    catalogPlugin,
    {
      name: "no-stylesheets",
      setup(build) {
        build.onLoad({ filter: /\.css$/ }, () => ({ contents: "", loader: "js" }));
      },
    },
  ],
  entrypoints: [path.join(root, "web/server-render.tsx")],
  outdir: path.join(outdir, RENDER_DIR),
  minify: true,
  sourcemap: "none",
  target: "bun",
  splitting: true,
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
});
if (!serverRender.success) {
  for (const message of serverRender.logs) console.error(message);
  process.exit(1);
}
// Pico goes in as Pico ships it, first in the page's one stylesheet. Through Bun's CSS
// minifier (which targets Chrome 80) its :is()/:where() rules come out in three copies each:
// 139 KB instead of 83, more for a phone to download, parse and match on every style change.
const appCss = result.outputs.find(
  (o) => o.kind === "asset" && /^index-[a-z0-9]+\.css$/.test(path.basename(o.path)),
);
if (!appCss) throw new Error("the build has no stylesheet for index.html");
const pico = fs.readFileSync(
  path.join(root, "node_modules/@picocss/pico/css/pico.violet.min.css"),
  "utf8",
);
const css = `${pico}\n${fs.readFileSync(appCss.path, "utf8")}`;
const cssFile = `index-${Bun.hash(css).toString(36).slice(0, 8)}.css`;
fs.writeFileSync(path.join(outdir, cssFile), css);
fs.rmSync(appCss.path);
result.outputs.splice(result.outputs.indexOf(appCss), 1, {
  ...appCss,
  path: path.join(outdir, cssFile),
  size: css.length,
});
// The PWA files keep fixed names: the service worker must be /sw.js (its scope is the folder it is
// served from) and the manifest and icons are named in index.html and the manifest.
const pwaDir = path.join(root, "web/pwa");
fs.mkdirSync(path.join(outdir, "pwa"), { recursive: true });
fs.copyFileSync(path.join(pwaDir, "sw.js"), path.join(outdir, "sw.js"));
for (const f of ["icon-192.png", "icon-512.png"]) {
  fs.copyFileSync(path.join(pwaDir, f), path.join(outdir, "pwa", f));
}
// One manifest per language (src/i18n/manifest.ts): the description in it, the name as it is.
const manifest = JSON.parse(fs.readFileSync(path.join(pwaDir, "manifest.webmanifest"), "utf8"));
for (const language of LANGUAGES) {
  const localized = {
    ...manifest,
    lang: language,
    description: translate(language, "pwa.description"),
  };
  fs.writeFileSync(
    path.join(outdir, manifestPath(language)),
    `${JSON.stringify(localized, null, 2)}\n`,
  );
}
// The first screen's head start (web/preload.ts): a classic script, inline before the app,
// that knows each page's chunk so it can preload the one of the address being opened. With each
// page chunk go the chunks it imports, directly or through others, so none is a round trip later.
// Page chunks are named after their module (naming.chunk), which the route table names.
const chunkImports = (file: string) =>
  [...fs.readFileSync(file, "utf8").matchAll(/\bfrom\s*"(\/[^"]+\.js)"/g)].map((i) => i[1]!);
const entry = result.outputs.find((o) => o.kind === "entry-point" && o.path.endsWith(".js"));
if (!entry) throw new Error("the build has no entry chunk");
const pageChunks: Record<string, string[]> = {};
for (const { page } of ROUTES) {
  const chunk = result.outputs.find((o) => {
    const name = path.basename(o.path);
    return name.startsWith(`${page}-`) && name.endsWith(".js");
  });
  if (!chunk) throw new Error(`no chunk for ${page} (web/routes.ts): is it still loaded lazily?`);
  const chunks = [`/${path.basename(chunk.path)}`];
  for (let i = 0; i < chunks.length; i++) {
    for (const dep of chunkImports(path.join(outdir, chunks[i]!))) {
      if (!chunks.includes(dep)) chunks.push(dep);
    }
  }
  // The entry is already on its way (index.html's script).
  pageChunks[page] = chunks.filter((c) => c !== `/${path.basename(entry.path)}`);
}
// Each language's first catalog chunk, so the head start can fetch the reader's with the bundle.
const catalogChunks: Record<string, string> = {};
for (const language of LANGUAGES) {
  const chunk = result.outputs.find((o) =>
    new RegExp(`^${language}-first-[a-z0-9]+\\.js$`).test(path.basename(o.path)),
  );
  if (!chunk) throw new Error(`no catalog chunk for ${language} (web/i18n/index.ts)`);
  catalogChunks[language] = `/${path.basename(chunk.path)}`;
}
const preload = await Bun.build({
  entrypoints: [path.join(root, "web/preload.ts")],
  outdir,
  minify: true,
  sourcemap: "none",
  target: "browser",
  format: "iife",
  naming: { entry: "[name]-[hash].[ext]" },
  define: {
    __GV_PAGE_CHUNKS__: JSON.stringify(pageChunks),
    __GV_CATALOG_CHUNKS__: JSON.stringify(catalogChunks),
  },
});
if (!preload.success) {
  for (const message of preload.logs) console.error(message);
  process.exit(1);
}
// Inline, first in the head: it runs as the HTML is parsed, one round trip before an external
// script would (and before the stylesheet, which would hold back any script after it). The page's
// Content-Security-Policy allows exactly this text by its hash (src/http/middleware/static.ts).
const preloadPath = preload.outputs[0]!.path;
const preloadCode = fs.readFileSync(preloadPath, "utf8").trim();
fs.rmSync(preloadPath);
if (/<\/script|<!--/i.test(preloadCode)) {
  throw new Error("web/preload.ts built into text that would end its inline <script> early");
}
const preloadHash = `sha256-${new Bun.CryptoHasher("sha256").update(preloadCode).digest("base64")}`;
fs.writeFileSync(
  path.join(outdir, PAGE_SCRIPTS),
  `${JSON.stringify({ scriptHashes: [preloadHash] })}\n`,
);
// Links Bun's HTML bundler would try to bundle (and rename): added to the built page instead.
const indexHtml = path.join(outdir, "index.html");
fs.writeFileSync(
  indexHtml,
  fs
    .readFileSync(indexHtml, "utf8")
    .replace(`/${path.basename(appCss.path)}"`, `/${cssFile}"`)
    // Right after the charset, before the stylesheet and the bundle, so the early script's
    // requests start with theirs; the manifest link before it, which the script points at the
    // reader's language.
    .replace(
      '<meta charset="utf-8" />',
      () =>
        '<meta charset="utf-8" />\n    <link rel="manifest" href="/pwa/manifest.webmanifest"><link rel="apple-touch-icon" href="/pwa/icon-192.png">' +
        `\n    <script>${preloadCode}</script>`,
    ),
);
if (!fs.readFileSync(indexHtml, "utf8").includes(preloadCode)) {
  throw new Error(
    'web/index.html lost its <meta charset="utf-8" />: the early script has no place',
  );
}

// Precompressed copies: the server sends file.br or file.gz to browsers that accept them (no CPU
// per request; src/http/middleware/static.ts). Brotli at level 10: 11% smaller than gzip on the
// bundle; level 11 saves 1.5% more and takes five times as long (seconds, on every npm start).
for (const o of result.outputs) {
  if (/\.(js|css|html|svg)$/.test(o.path)) {
    const bytes = fs.readFileSync(o.path);
    fs.writeFileSync(`${o.path}.gz`, Bun.gzipSync(bytes, { level: 9 }));
    fs.writeFileSync(
      `${o.path}.br`,
      zlib.brotliCompressSync(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 10,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    );
  }
}
// Every output but index.html has a content hash in its name: the server caches those forever.
const hashed = result.outputs
  .filter((o) => !o.path.endsWith(".html"))
  .map((o) => path.basename(o.path));
fs.writeFileSync(path.join(outdir, IMMUTABLE_LIST), JSON.stringify(hashed));
const files = result.outputs.map(
  (o) => `${path.relative(root, o.path)} (${(o.size / 1024).toFixed(1)} KB)`,
);
console.log(`web app built in ${Math.round(performance.now() - started)} ms: ${files.join(", ")}`);
