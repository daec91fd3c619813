/**
 * Serves the built web app from dist/: files with a content hash in their name (listed by the
 * build in dist/immutable.json) are cached forever, index.html never, and
 * every other non-/api GET falls back to index.html so the client router can show the page (or
 * its 404 card).
 */
import fs from "node:fs";
import path from "node:path";
import type { MiddlewareHandler } from "hono";
import { MANIFEST_PATHS } from "../../i18n/manifest.ts";
import { errorBody } from "../../util/errors.ts";
import type { AppEnv } from "../types.ts";

/** Written by scripts/build-web.ts: the content-hashed files, which never change. */
export const IMMUTABLE_LIST = "immutable.json";
/**
 * Fixed names that must be checked on every load: the service worker (a stale one would keep old
 * push code) and the PWA manifest.
 */
const NO_CACHE_FILES = new Set(["/sw.js", ...MANIFEST_PATHS]);

function readImmutable(root: string): Set<string> {
  try {
    return new Set(
      JSON.parse(fs.readFileSync(path.join(root, IMMUTABLE_LIST), "utf8")) as string[],
    );
  } catch {
    return new Set();
  }
}

/** The file's response, from its precompressed `.gz` copy when the browser accepts gzip. */
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
  if (/\bgzip\b/.test(acceptEncoding)) {
    const gz = Bun.file(`${filePath}.gz`);
    if (await gz.exists()) {
      body = gz;
      out["Content-Encoding"] = "gzip";
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
  let builtAt = indexStamp();
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
      !candidate.endsWith(".gz") &&
      pathname !== `/${IMMUTABLE_LIST}` &&
      (await Bun.file(candidate).exists())
    ) {
      if (builtAt !== indexStamp()) {
        immutable = readImmutable(root);
        builtAt = indexStamp();
      }
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
    return sendFile(indexFile, c.req.method, accept, {
      "Cache-Control": "no-cache",
      "Content-Type": "text/html; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
    });
  };
}
