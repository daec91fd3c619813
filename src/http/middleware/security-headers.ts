/**
 * Security headers on every response, pages and API alike.
 *
 * The session token lives in localStorage, so a strict Content-Security-Policy on the HTML is the
 * defence that matters: scripts, styles and connections only from this server, no inline script
 * but the build's own early script (allowed by its hash),
 * no plugins, never framed (`frame-ancestors 'none'`, plus X-Frame-Options for old browsers),
 * `<base>` and form targets only here. Images: this server (review media), `data:` (the icons
 * inside the stylesheet), `blob:` (previews of photos being uploaded) and Amazon's image hosts
 * (product pictures from Amazon's mail: see AMAZON_IMAGE_HOSTS). Media: this server and `blob:`.
 *
 * Styles: `style-src 'self'` without 'unsafe-inline'. React applies `style={…}` through the CSSOM
 * (element.style), which CSP does not restrict; the app has no `<style>` elements and no `style="…"`
 * markup (e2e/security.e2e.ts walks every screen and fails on any violation).
 *
 * Every other response (JSON, files) gets `default-src 'none'` unless it set its own policy (media
 * files answer with `sandbox`). HSTS only when the request came over https: the URL's scheme, or
 * `X-Forwarded-Proto` from the proxy when TRUST_PROXY is on (the right-most value, the one the
 * nearest proxy wrote). A plain-http LAN install never gets a header that would lock browsers
 * into https.
 */
import type { MiddlewareHandler } from "hono";
import { AMAZON_IMAGE_HOSTS } from "../../contract/constants.ts";

/**
 * The page's policy. `scriptHashes`: the inline scripts the build put in index.html (the early
 * script, web/preload.ts), each allowed by its own SHA-256 (`'sha256-…'`, from the build's
 * dist/page-scripts.json): that exact text runs, no other inline script does.
 */
export function pageCsp(scriptHashes: readonly string[] = []): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((h) => `'${h}'`)].join(" "),
    "style-src 'self'",
    // Host sources without a scheme: https on an https page, http or https on a plain-http LAN page.
    `img-src 'self' data: blob: ${AMAZON_IMAGE_HOSTS.join(" ")}`,
    "media-src 'self' blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/** The policy of a page with no inline script. */
export const PAGE_CSP = pageCsp();

/** For everything that is not a page: nothing may load from it, nothing may frame it. */
export const OTHER_CSP =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const HSTS = "max-age=15552000";

/** True when the request reached us (or the proxy in front of us) over https. */
export function cameOverHttps(
  url: string,
  forwardedProto: string | undefined,
  trustProxy: boolean,
) {
  if (trustProxy && forwardedProto) {
    return forwardedProto.split(",").at(-1)?.trim().toLowerCase() === "https";
  }
  return new URL(url).protocol === "https:";
}

export function securityHeaders(opts: { trustProxy: boolean }): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    const isPage = /^text\/html\b/i.test(h.get("content-type") ?? "");
    // The web app's page comes with its own (pageCsp with its inline script's hash).
    if (isPage && !h.has("Content-Security-Policy")) h.set("Content-Security-Policy", PAGE_CSP);
    else if (!h.has("Content-Security-Policy")) h.set("Content-Security-Policy", OTHER_CSP);
    if (!h.has("X-Frame-Options")) h.set("X-Frame-Options", "DENY");
    if (!h.has("X-Content-Type-Options")) h.set("X-Content-Type-Options", "nosniff");
    if (!h.has("Referrer-Policy")) h.set("Referrer-Policy", "same-origin");
    if (cameOverHttps(c.req.url, c.req.header("x-forwarded-proto"), opts.trustProxy)) {
      h.set("Strict-Transport-Security", HSTS);
    }
  };
}
