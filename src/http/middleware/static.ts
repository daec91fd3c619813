/**
 * Serves the built web app from dist/: files with a content hash in their name (listed by the
 * build in dist/immutable.json) are cached forever, index.html never, and
 * every other non-/api GET falls back to index.html so the client router can show the page (or
 * its 404 card).
 */
import fs from "node:fs";
import path from "node:path";
import type { MiddlewareHandler } from "hono";
import { RENDER_DIR } from "../../features/first-screen/first-screen.service.ts";
import { MANIFEST_PATHS } from "../../i18n/manifest.ts";
import { errorBody } from "../../util/errors.ts";
import type { AppEnv } from "../types.ts";
import { pageCsp } from "./security-headers.ts";

/** Written by scripts/build-web.ts: the content-hashed files, which never change. */
export const IMMUTABLE_LIST = "immutable.json";
/**
 * Written by scripts/build-web.ts: `{ "scriptHashes": ["sha256-…"] }`, the inline scripts of
 * index.html, which the page's Content-Security-Policy allows by hash.
 */
export const PAGE_SCRIPTS = "page-scripts.json";
/** The build's lists: not pages of their own. */
const BUILD_LISTS = new Set([`/${IMMUTABLE_LIST}`, `/${PAGE_SCRIPTS}`]);
/** The server's own part of the build (the first-screen renderer): never sent to a browser. */
const SERVER_ONLY = `/${RENDER_DIR}/`;
/**
 * Fixed names that must be checked on every load: the service worker (a stale one would keep old
 * push code) and the PWA manifest.
 */
const NO_CACHE_FILES = new Set(["/sw.js", ...MANIFEST_PATHS]);

/** The policy of the built index.html: its inline scripts' hashes, none without the list. */
function readPageCsp(root: string): string {
  try {
    const { scriptHashes } = JSON.parse(fs.readFileSync(path.join(root, PAGE_SCRIPTS), "utf8")) as {
      scriptHashes?: unknown;
    };
    const hashes = Array.isArray(scriptHashes)
      ? scriptHashes.filter(
          (h): h is string => typeof h === "string" && /^sha256-[A-Za-z0-9+/]+=*$/.test(h),
        )
      : [];
    return pageCsp(hashes);
  } catch {
    return pageCsp();
  }
}

function readImmutable(root: string): Set<string> {
  try {
    return new Set(
      JSON.parse(fs.readFileSync(path.join(root, IMMUTABLE_LIST), "utf8")) as string[],
    );
  } catch {
    return new Set();
  }
}

/**
 * The precompressed copies the build writes next to each text file, best first: Brotli is about
 * 15% smaller than gzip on the bundle, but Chromium asks for it only over HTTPS and from localhost
 * (a phone on the LAN over plain http accepts gzip and deflate only).
 */
const ENCODINGS = [
  { name: "br", suffix: ".br", accepted: /\bbr\b/ },
  { name: "gzip", suffix: ".gz", accepted: /\bgzip\b/ },
] as const;

/** The file's response, from its best precompressed copy the browser accepts. */
async function sendFile(
  filePath: string,
  method: string,
  acceptEncoding: string,
  headers: Record<string, string>,
): Promise<Response> {
  const file = Bun.file(filePath);
  const out: Record<string, string> = {
    "Content-Type": file.type,
    Vary: "Accept-Encoding",
    ...headers,
  };
  let body: Blob = file;
  for (const { name, suffix, accepted } of ENCODINGS) {
    if (!accepted.test(acceptEncoding)) continue;
    const copy = Bun.file(`${filePath}${suffix}`);
    if (await copy.exists()) {
      body = copy;
      out["Content-Encoding"] = name;
      break;
    }
  }
  out["Content-Length"] = String(body.size);
  return new Response(method === "HEAD" ? null : body, { headers: out });
}

export function serveWeb(distDir: string): MiddlewareHandler<AppEnv> {
  const root = path.resolve(distDir);
  const indexFile = path.join(root, "index.html");
  // Re-read the list when the app is rebuilt while the server runs (npm run dev).
  const indexStamp = () => {
    try {
      return fs.statSync(indexFile).mtimeMs;
    } catch {
      return 0;
    }
  };
  let immutable = readImmutable(root);
  let csp = readPageCsp(root);
  let builtAt = indexStamp();
  const rereadOnRebuild = () => {
    if (builtAt === indexStamp()) return;
    immutable = readImmutable(root);
    csp = readPageCsp(root);
    builtAt = indexStamp();
  };
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.json(errorBody("malformed_address"), 400);
    }
    if (pathname.includes("\0")) return c.json(errorBody("malformed_address"), 400);
    const accept = c.req.header("accept-encoding") ?? "";
    if (pathname === "/api" || pathname.startsWith("/api/")) return next();
    const candidate = path.resolve(root, `.${pathname}`);
    if (
      candidate.startsWith(root + path.sep) &&
      pathname !== "/index.html" &&
      !/\.(gz|br)$/.test(candidate) &&
      !BUILD_LISTS.has(pathname) &&
      !pathname.startsWith(SERVER_ONLY) &&
      (await Bun.file(candidate).exists())
    ) {
      rereadOnRebuild();
      const cache = immutable.has(path.relative(root, candidate))
        ? "public, max-age=31536000, immutable"
        : NO_CACHE_FILES.has(pathname)
          ? "no-cache"
          : "public, max-age=3600";
      return sendFile(candidate, c.req.method, accept, { "Cache-Control": cache });
    }
    if (!(await Bun.file(indexFile).exists())) {
      return c.text("The web app is not built. Run `npm run build` (npm start does it).", 503);
    }
    rereadOnRebuild();
    return sendFile(indexFile, c.req.method, accept, {
      "Content-Security-Policy": csp,
      "Cache-Control": "no-cache",
      "Content-Type": "text/html; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
    });
  };
}
