/**
 * Every page carries a strict Content-Security-Policy (no inline script,
 * never framed, base and form targets only here, images from this server and Amazon's image hosts),
 * the API keeps its own headers, HSTS only when the request came over https, and with TRUST_PROXY
 * the right-most X-Forwarded-Proto / X-Forwarded-For entry (the one the proxy wrote) counts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isAmazonImageUrl, PRODUCT_IMAGE_MESSAGE } from "../../src/contract/constants.ts";
import { createApp } from "../../src/http/app.ts";
import { HSTS, OTHER_CSP, PAGE_CSP } from "../../src/http/middleware/security-headers.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";

let h: Harness;
let tmp: string;
const apps: Record<string, ReturnType<typeof createApp>> = {};

beforeAll(() => {
  h = createHarness();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-csp-"));
  fs.writeFileSync(path.join(tmp, "index.html"), "<!doctype html><div id=root></div>");
  fs.writeFileSync(path.join(tmp, "app-abc.js"), "console.log(1)");
  for (const trustProxy of [false, true]) {
    apps[String(trustProxy)] = createApp({
      ...h,
      config: { ...h.config, distDir: tmp, trustProxy },
      log: h.logger.log,
    });
  }
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const get = (url: string, opts: { proxy?: boolean; headers?: Record<string, string> } = {}) =>
  Promise.resolve(apps[String(opts.proxy ?? false)]!.request(url, { headers: opts.headers }));

/** The policy as a map of directive → sources. */
function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (csp ?? "").split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name, sources);
  }
  return out;
}

describe("pages", () => {
  test("every screen's HTML carries the strict policy and cannot be framed", async () => {
    for (const url of ["/", "/login", "/orders?status=all", "/orders/7/edit", "/account", "/x/y"]) {
      const res = await get(url);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("content-security-policy")).toBe(PAGE_CSP);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const d = directives(PAGE_CSP);
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("script-src")).toEqual(["'self'"]);
    expect(d.get("style-src")).toEqual(["'self'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'self'"]);
    expect(d.get("form-action")).toEqual(["'self'"]);
    expect(d.get("connect-src")).toEqual(["'self'"]);
    expect(d.get("media-src")).toEqual(["'self'", "blob:"]);
    expect(d.get("img-src")).toEqual([
      "'self'",
      "data:",
      "blob:",
      "*.media-amazon.com",
      "*.images-amazon.com",
      "*.ssl-images-amazon.com",
    ]);
    // No way to run inline or evaluated script.
    expect(PAGE_CSP).not.toContain("unsafe-inline");
    expect(PAGE_CSP).not.toContain("unsafe-eval");
  });

  test("files and API answers get a policy that allows nothing; media keep their sandbox", async () => {
    const asset = await get("/app-abc.js");
    expect(asset.headers.get("content-security-policy")).toBe(OTHER_CSP);
    const api = await call(h, "GET", "/api/health");
    expect(api.res.headers.get("content-security-policy")).toBe(OTHER_CSP);
    expect(api.res.headers.get("x-frame-options")).toBe("DENY");
    expect(api.res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    const missing = await call(h, "GET", "/api/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.res.headers.get("content-security-policy")).toBe(OTHER_CSP);
  });
});

describe("HSTS only over https", () => {
  test("plain http (a LAN install): no Strict-Transport-Security, on pages or the API", async () => {
    for (const url of ["http://nas.local:3000/", "http://nas.local:3000/api/health"]) {
      expect((await get(url)).headers.get("strict-transport-security")).toBeNull();
    }
  });

  test("an https request URL gets it", async () => {
    for (const url of ["https://vine.example.com/", "https://vine.example.com/api/health"]) {
      expect((await get(url)).headers.get("strict-transport-security")).toBe(HSTS);
    }
  });

  test("X-Forwarded-Proto counts only with TRUST_PROXY, and only its right-most value", async () => {
    const https = { "x-forwarded-proto": "https" };
    expect(
      (await get("/", { headers: https })).headers.get("strict-transport-security"),
    ).toBeNull();
    expect(
      (await get("/", { proxy: true, headers: https })).headers.get("strict-transport-security"),
    ).toBe(HSTS);
    // A client-written "https" before the proxy's own "http" does not count.
    const forged = { "x-forwarded-proto": "https, http" };
    expect(
      (await get("/", { proxy: true, headers: forged })).headers.get("strict-transport-security"),
    ).toBeNull();
  });
});

describe("product pictures the pages may show", () => {
  test("only Amazon's image hosts; anything else is a 400 naming them", async () => {
    expect(isAmazonImageUrl("https://m.media-amazon.com/images/I/71abc.jpg")).toBe(true);
    expect(isAmazonImageUrl("https://images-na.ssl-images-amazon.com/images/I/a.jpg")).toBe(true);
    expect(isAmazonImageUrl("http://g-ecx.images-amazon.com/images/G/01/x.gif")).toBe(true);
    expect(isAmazonImageUrl("https://evilmedia-amazon.com/a.jpg")).toBe(false);
    expect(isAmazonImageUrl("https://m.media-amazon.com.evil.example/a.jpg")).toBe(false);
    expect(isAmazonImageUrl("javascript:alert(1)")).toBe(false);
    const u = await h.register("pics@example.com");
    const refused = await call(h, "POST", "/api/orders", {
      token: u.token,
      body: { productname: "Lamp", asin: "B0LAMP", productimage: "https://tracker.example/p.gif" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(PRODUCT_IMAGE_MESSAGE);
    const ok = await call(h, "POST", "/api/orders", {
      token: u.token,
      body: {
        productname: "Lamp",
        asin: "B0LAMP",
        productimage: "https://m.media-amazon.com/images/I/71abc.jpg",
      },
    });
    expect(ok.status).toBe(201);
  });
});
