/** The built web app: SPA fallback, cache headers, /api stays JSON, no file outside dist/. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { createApp } from "../../src/http/app.ts";
import { PAGE_CSP, pageCsp } from "../../src/http/middleware/security-headers.ts";
import { createHarness, type Harness } from "../harness.ts";

const INDEX = "<!doctype html><html><body><div id=root></div>grapevine-index</body></html>";
const ASSET = "console.log('grapevine asset');";
const SECRET = "TOP-SECRET-OUTSIDE-DIST";

let h: Harness;
let tmp: string;
let dist: string;
let app: ReturnType<typeof createApp>;

beforeAll(() => {
  h = createHarness();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-static-"));
  dist = path.join(tmp, "dist");
  fs.mkdirSync(path.join(dist, "assets"), { recursive: true });
  fs.writeFileSync(path.join(dist, "index.html"), INDEX);
  fs.writeFileSync(path.join(dist, "assets", "app-abcdef12.js"), ASSET);
  fs.writeFileSync(path.join(dist, "robots.txt"), "User-agent: *\n");
  // What scripts/build-web.ts writes: the content-hashed files, cached forever.
  fs.writeFileSync(path.join(dist, "immutable.json"), JSON.stringify(["assets/app-abcdef12.js"]));
  // things a traversal would try to reach
  fs.writeFileSync(path.join(tmp, "secret.txt"), SECRET);
  fs.mkdirSync(path.join(tmp, "dist-other"));
  fs.writeFileSync(path.join(tmp, "dist-other", "secret.txt"), SECRET);
  app = createApp({ ...h, config: { ...h.config, distDir: dist }, log: h.logger.log });
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A rebuild as the server sees it: index.html has a new modification time. */
let rebuilds = 0;
function touchIndex() {
  const at = new Date(Date.now() + ++rebuilds * 1000);
  fs.utimesSync(path.join(dist, "index.html"), at, at);
}

const get = (url: string, method = "GET") => Promise.resolve(app.request(url, { method }));
const getWith = (url: string, headers: Record<string, string>) =>
  Promise.resolve(app.request(url, { headers }));

async function expectIndex(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/html");
  expect(res.headers.get("cache-control")).toBe("no-cache");
  expect(await res.text()).toBe(INDEX);
}

describe("the web app", () => {
  test("GET / is index.html, never cached", async () => {
    await expectIndex(await get("/"));
  });

  test("client routes fall back to index.html", async () => {
    for (const url of ["/orders/5", "/account", "/admin/logs", "/no/such/page?x=1", "/login"]) {
      await expectIndex(await get(url));
    }
  });

  test("/index.html itself is not cached either", async () => {
    await expectIndex(await get("/index.html"));
  });

  test("a hashed asset is cached forever", async () => {
    const res = await get("/assets/app-abcdef12.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("cache-control")).toContain("max-age=31536000");
    expect(res.headers.get("content-type")).toContain("javascript");
    expect(await res.text()).toBe(ASSET);
  });

  test("a name that merely looks hashed is not cached forever unless the build listed it", async () => {
    fs.writeFileSync(path.join(dist, "site-manifest.json"), "{}");
    const res = await get("/site-manifest.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).not.toContain("immutable");
  });

  test("browsers that accept gzip get the precompressed copy; others the plain file", async () => {
    fs.writeFileSync(
      path.join(dist, "assets", "app-abcdef12.js.gz"),
      Bun.gzipSync(new TextEncoder().encode(ASSET)),
    );
    const gz = await getWith("/assets/app-abcdef12.js", { "accept-encoding": "gzip, br" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toContain("Accept-Encoding");
    const plain = await getWith("/assets/app-abcdef12.js", {});
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(ASSET);
    // The .gz copy and the build's list are not served as pages of their own.
    expect((await get("/immutable.json")).headers.get("cache-control")).toBe("no-cache");
  });

  test("browsers that accept Brotli get the .br copy before the .gz one", async () => {
    const js = "/assets/app-abcdef12.js";
    fs.writeFileSync(path.join(dist, `${js}.gz`), Bun.gzipSync(new TextEncoder().encode(ASSET)));
    fs.writeFileSync(path.join(dist, `${js}.br`), zlib.brotliCompressSync(ASSET));
    const br = await getWith(js, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(ASSET);
    // A phone on the LAN over plain http asks for gzip and deflate only.
    const gz = await getWith(js, { "accept-encoding": "gzip, deflate" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer())))).toBe(
      ASSET,
    );
    // The copies are not served under their own names.
    const copy = await get(`${js}.br`);
    expect(copy.headers.get("content-type")).toContain("text/html");
  });

  test("the page allows its build's inline script by hash, and no other", async () => {
    const plain = await get("/orders");
    expect(plain.headers.get("content-security-policy")).toBe(PAGE_CSP);
    const hash = "sha256-OYNs9XlrLqrIbZCL032ZUatL3IQU1I5zO9avZ5zHbNc=";
    fs.writeFileSync(
      path.join(dist, "page-scripts.json"),
      JSON.stringify({ scriptHashes: [hash] }),
    );
    // The server notices a rebuild by index.html's time.
    touchIndex();
    const res = await get("/orders");
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toBe(pageCsp([hash]));
    expect(policy).toContain(`script-src 'self' '${hash}';`);
    expect(policy).not.toContain("unsafe-inline");
    // The list itself is not a file to fetch.
    expect((await get("/page-scripts.json")).headers.get("content-type")).toContain("text/html");
    // A list that is not hashes adds nothing to the policy.
    fs.writeFileSync(
      path.join(dist, "page-scripts.json"),
      JSON.stringify({ scriptHashes: ["'unsafe-inline'", "sha256-x' 'unsafe-eval"] }),
    );
    touchIndex();
    expect((await get("/orders")).headers.get("content-security-policy")).toBe(PAGE_CSP);
    fs.rmSync(path.join(dist, "page-scripts.json"));
    touchIndex();
  });

  test("an unhashed file is cached briefly, not forever", async () => {
    const res = await get("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).not.toContain("immutable");
    expect(await res.text()).toBe("User-agent: *\n");
  });

  test("a missing asset falls back to index.html", async () => {
    await expectIndex(await get("/assets/app-00000000.js"));
  });

  test("HEAD / answers without a body", async () => {
    const res = await get("/", "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toBe("");
  });

  test("POST to a page is a JSON 404, not index.html", async () => {
    const res = await get("/orders/5", "POST");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found", code: "not_found", values: {} });
  });

  test("/api paths stay JSON 404s, never index.html", async () => {
    for (const url of ["/api/nope", "/api", "/api/nope/5", "/api%2Fnope"]) {
      const res = await get(url);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = (await res.json()) as { error: string };
      expect(typeof body.error).toBe("string");
    }
  });

  test("without a build, pages say so with 503 and /api still works", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-nodist-"));
    try {
      const bare = createApp({ ...h, config: { ...h.config, distDir: empty }, log: h.logger.log });
      const res = await bare.request("/");
      expect(res.status).toBe(503);
      expect(await res.text()).toContain("not built");
      expect((await bare.request("/api/health")).status).toBe(200);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("path traversal", () => {
  const attempts = [
    "/..%2fsecret.txt",
    "/..%2f..%2fetc/passwd",
    "/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/%2e%2e/secret.txt",
    "/%2e%2e%2fsecret.txt",
    "/assets/..%2f..%2fsecret.txt",
    "/..%5csecret.txt",
    "/..%2fdist-other%2fsecret.txt",
    "/%2e%2e%2fdist-other/secret.txt",
    "/....//secret.txt",
    "/%252e%252e%252fsecret.txt",
  ];
  for (const url of attempts) {
    test(`${url} never serves a file outside dist`, async () => {
      const res = await get(url);
      const text = await res.text();
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("root:");
      expect([200, 400, 404]).toContain(res.status);
      if (res.status === 200) expect(text).toBe(INDEX);
    });
  }
});

describe("malformed page URLs", () => {
  // Regression guard: decodeURIComponent() on a malformed escape used to throw and give a 500.
  test("a malformed percent-escape is a client error, not a 500", async () => {
    for (const url of ["/%ZZ", "/orders/%E0%A4%A", "/%"]) {
      const res = await get(url);
      expect(res.status).toBeLessThan(500);
      expect(await res.text()).not.toContain(SECRET);
    }
  });

  // BUG (see report): an encoded NUL reaches Bun.file(candidate).exists() in serveWeb, which
  // throws ERR_INVALID_ARG_VALUE, so the request becomes a logged 500.
  test("an encoded NUL byte is a client error, not a 500", async () => {
    for (const url of ["/a%00b", "/assets/app-abcdef12.js%00.txt"]) {
      const res = await get(url);
      expect(res.status).toBeLessThan(500);
    }
  });
});
