/** Health, unknown /api paths, shared headers, and what the request log writes. */
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import fs from "node:fs";
import { createHarness, type Harness } from "../harness.ts";
import { call, type ErrorBody } from "./helpers.ts";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = createHarness({ LOG_LEVEL: "info" });
  token = (await h.register()).token;
});
afterAll(async () => {
  await h.close();
});

describe("token check on the bare prefixes", () => {
  const paths = ["/api/orders", "/api/user", "/api/notifications"];
  for (const url of paths) {
    test(`GET ${url} asks for a token, and checks it once`, async () => {
      const none = await call(h, "GET", url);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({
        error: "Access token required",
        code: "token_required",
        values: {},
      });
      const spy = spyOn(h.services.auth, "authenticate");
      try {
        const res = await h.req("GET", url, { token });
        expect(res.status).not.toBe(401);
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
    });
  }
});

describe("GET /api/health", () => {
  test("200 {status: 'ok'} without a token, never cached", async () => {
    const res = await h.req("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { status: string; uptime: number };
    expect(body.status).toBe("ok");
    expect(Number.isInteger(body.uptime)).toBe(true);
    expect(body.uptime).toBeGreaterThanOrEqual(0);
  });
});

describe("unknown /api paths", () => {
  const cases: [string, string, boolean][] = [
    ["GET", "/api/nope", false],
    ["POST", "/api/nope", false],
    ["GET", "/api", false],
    ["GET", "/api/auth/nope", false],
    ["GET", "/api/auth/login", false],
    ["DELETE", "/api/health", false],
    ["GET", "/api/user/nope", true],
    ["GET", "/api/nope/5", true],
  ];
  for (const [method, url, auth] of cases) {
    test(`${method} ${url} is a JSON 404 with an error field`, async () => {
      const res = await h.req(method, url, { token: auth ? token : null });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = (await res.json()) as ErrorBody;
      expect(body.error).toBe(`Not found: ${method} ${url}`);
    });
  }

  test("an unknown path under /api/user still asks for a token first", async () => {
    const { status, body } = await call(h, "GET", "/api/user/nope");
    expect(status).toBe(401);
    expect(body).toEqual({ error: "Access token required", code: "token_required", values: {} });
  });
});

describe("shared response headers", () => {
  test("API responses carry security headers and a request id", async () => {
    const res = await h.req("GET", "/api/health");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-request-id")).toMatch(/^[\w.-]{1,64}$/);
  });

  test("a sane incoming X-Request-Id is echoed; a hostile one is replaced", async () => {
    const ok = await h.req("GET", "/api/health", { headers: { "x-request-id": "abc-123.x" } });
    expect(ok.headers.get("x-request-id")).toBe("abc-123.x");
    const bad = await h.req("GET", "/api/health", {
      headers: { "x-request-id": "evil\u00e9 id; <script>" },
    });
    expect(bad.headers.get("x-request-id")).not.toContain("evil");
    expect(bad.headers.get("x-request-id")).toMatch(/^[\w.-]{1,64}$/);
  });
});

/** The active log file's text once it contains `marker` (or after 3 s). */
async function logTextWith(marker: string): Promise<string> {
  const deadline = Date.now() + 3000;
  let text = "";
  while (Date.now() < deadline) {
    const file = h.logger.activeFile();
    text = file && fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (text.includes(marker)) break;
    await Bun.sleep(25);
  }
  return text;
}

describe("the request log", () => {
  test("token= query values never reach the log file", async () => {
    await h.req("GET", "/api/events?token=super-secret-value&x=1");
    await h.req("GET", "/api/nope?a=1&Token=another-secret");
    const text = await logTextWith("/api/nope?a=1");
    expect(text).toContain("/api/events?token=[redacted]&x=1");
    expect(text).toContain("/api/nope?a=1&Token=[redacted]");
    expect(text).not.toContain("super-secret-value");
    expect(text).not.toContain("another-secret");
  });

  test("bearer tokens and passwords are not logged", async () => {
    await h.req("POST", "/api/auth/login", {
      body: { email: "nobody@example.com", password: "logged-password?" },
    });
    await h.req("GET", "/api/user/data", { token });
    const text = await logTextWith("/api/user/data");
    expect(text).toContain("/api/user/data");
    expect(text).toContain("/api/auth/login");
    expect(text).not.toContain(token);
    expect(text).not.toContain("logged-password?");
  });
});
