/**
 * The second security audit (sign-ups included): alert channels that could read
 * the LAN and the server itself, guesses per account across addresses, deeply nested JSON, the
 * VAPID contact, metadata addresses hidden in IPv6 forms, credentials in an ntfy address, line
 * breaks in header values, media links that outlived their session, sign-ups per address.
 * Each test was seen failing before its fix.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import crypto from "node:crypto";
import os from "node:os";
import { cleanStrings } from "../../src/contract/fields.ts";
import type { AlertChannel } from "../../src/contract/index.ts";
import { createHarness, type Harness } from "../harness.ts";
import { type FakeAlerts, startFakeAlerts } from "../support/fake-alerts.ts";
import { png } from "../support/media-files.ts";
import { call } from "./helpers.ts";

let fake: FakeAlerts;
beforeAll(() => {
  fake = startFakeAlerts();
});
afterAll(() => fake.stop());

/** DNS of the tests: names for loopback, metadata in IPv6 forms, and public push services. */
const resolve = async (host: string) => {
  if (host === "fake.test") return [{ address: "127.0.0.1", family: 4 }];
  if (host === "mapped-metadata.test") return [{ address: "::ffff:a9fe:a9fe", family: 6 }];
  if (host === "nat64-metadata.test") return [{ address: "64:ff9b::a9fe:a9fe", family: 6 }];
  if (host === "home.test") return [{ address: "192.168.1.20", family: 4 }];
  if (
    /^(fcm\.googleapis\.com|updates\.push\.services\.mozilla\.com|.+\.push\.apple\.com|.+\.notify\.windows\.com|push\.example\.com)$/.test(
      host,
    )
  ) {
    return [{ address: "142.250.1.1", family: 4 }];
  }
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

let clock = new Date("2026-03-10T12:00:00Z");
const open: Harness[] = [];
function harness(env: Record<string, string> = {}) {
  const h = createHarness(env, {
    alerts: { now: () => clock, timeoutMs: 300, resolve },
  });
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  fake.requests.length = 0;
  clock = new Date("2026-03-10T12:00:00Z");
});

const addChannel = (h: Harness, token: string, body: Record<string, unknown>) =>
  call<AlertChannel & { error: string }>(h, "POST", "/api/user/alert-channels", { token, body });
const testChannel = (h: Harness, token: string, id: number) =>
  call<{ ok: boolean; error?: string; errorCode?: string; errorValues?: object }>(
    h,
    "POST",
    `/api/user/alert-channels/${id}/test`,
    {
      token,
    },
  );
const webhook = (url: string) => ({ type: "webhook", url, format: "json" });

function pushSubscription(endpoint: string) {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint,
    keys: {
      p256dh: ecdh.getPublicKey().toString("base64url"),
      auth: crypto.randomBytes(16).toString("base64url"),
    },
  };
}

describe("alert channels are no read oracle for the LAN and the server", () => {
  test("loopback and names resolving to it are refused unless ALERTS_ALLOW_LOOPBACK=true", async () => {
    const h = harness();
    const a = await h.register();
    for (const url of [
      `${fake.url}/hook/x`,
      "http://fake.test/x",
      "http://[::1]:8080/x",
      "http://127.5.6.7/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://0.0.0.0:3000/x",
    ]) {
      const res = await addChannel(h, a.token, webhook(url));
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatch(
        /this server's own address: alerts go there only when the administrator sets ALERTS_ALLOW_LOOPBACK=true|is not an address alerts are sent to/,
      );
    }
    const ntfy = await addChannel(h, a.token, { type: "ntfy", serverUrl: fake.url, topic: "t" });
    expect(ntfy.status).toBe(400);
    expect(ntfy.body.error).toBe(
      `${new URL(fake.url).host} is this server's own address: alerts go there only when the administrator sets ALERTS_ALLOW_LOOPBACK=true`,
    );
    // Which sentence and its values, for the catalog to say it in the reader's language.
    expect(ntfy.body).toMatchObject({
      code: "alert_address_refused",
      values: { kind: "addressIs", host: new URL(fake.url).host, why: "loopback" },
    });
    expect(h.db.$client.query("SELECT count(*) AS n FROM alert_channels").get()).toEqual({ n: 0 });
    // The LAN stays allowed (ntfy and Home Assistant live there), and so does Tailscale's range.
    for (const url of [
      "http://192.168.1.20:8123/api/webhook/x",
      "http://home.test/x",
      "http://100.64.1.2/x",
    ]) {
      expect((await addChannel(h, a.token, webhook(url))).status, url).toBe(201);
    }
    const allowed = harness({ ALERTS_ALLOW_LOOPBACK: "true" });
    const b = await allowed.register();
    expect((await addChannel(allowed, b.token, webhook(`${fake.url}/hook/x`))).status).toBe(201);
  });

  test("the server's own (non-loopback) addresses count as loopback", async () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === "IPv4")?.address;
    if (!own) return; // a machine with only loopback has no such address to refuse
    const h = harness();
    const a = await h.register();
    const res = await addChannel(h, a.token, webhook(`http://${own}:8123/x`));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/this server's own address/);
  });

  test("a test answers the status and a fixed sentence, never the far side's body", async () => {
    const h = harness({ ALERTS_ALLOW_LOOPBACK: "true" });
    const a = await h.register();
    const ch = (await addChannel(h, a.token, webhook(`${fake.url}/hook/oracle`))).body;
    const answers: [number, string][] = [
      [500, "The webhook answered 500 (an error on its side)"],
      [401, "The webhook answered 401 (access denied: check the address, token or password)"],
      [404, "The webhook answered 404 (nothing there: check the address)"],
      [400, "The webhook answered 400 (it did not accept the alert)"],
    ];
    for (const [status, sentence] of answers) {
      fake.script("/hook/oracle", {
        status,
        body: JSON.stringify({ message: "INTERNAL-SECRET: db password hunter2" }),
      });
      clock = new Date(clock.getTime() + 60_000); // past the per-minute limit of tests
      const res = await testChannel(h, a.token, ch.id);
      // The sentence's id and values (for the reader's language) carry no word of the far side.
      expect(res.body).toEqual({
        ok: false,
        error: sentence,
        errorCode: "alerts.server.answered",
        errorValues: { who: "webhook", status, reason: expect.any(String) },
      });
      expect(JSON.stringify(res.body)).not.toContain("hunter2");
    }
    fake.script("/hook/oracle", { status: 302, headers: { location: "http://10.1.2.3/admin" } });
    const redirect = await testChannel(h, a.token, ch.id);
    expect(redirect.body.error).toBe(
      `${new URL(fake.url).host} answered 302 with a redirect to another host, which is not followed`,
    );
    const listed = await call<AlertChannel[]>(h, "GET", "/api/user/alert-channels", {
      token: a.token,
    });
    expect(JSON.stringify(listed.body)).not.toContain("INTERNAL-SECRET");
    expect(JSON.stringify(listed.body)).not.toContain("10.1.2.3");
  });

  test("refused, timed out and not-HTTP ports answer one sentence", async () => {
    const h = harness({ ALERTS_ALLOW_LOOPBACK: "true" });
    const a = await h.register();
    // A port nothing listens on.
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const closedPort = closed.port;
    closed.stop(true);
    // A port that accepts and never answers; one that answers something that is not HTTP.
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const ssh = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(s) {
          s.write("SSH-2.0-OpenSSH_9.6\r\n");
        },
        data(s) {
          s.end();
        },
      },
    });
    try {
      for (const port of [closedPort, silent.port, ssh.port]) {
        const ch = (await addChannel(h, a.token, webhook(`http://127.0.0.1:${port}/x`))).body;
        clock = new Date(clock.getTime() + 60_000);
        const res = await testChannel(h, a.token, ch.id);
        expect(res.body, String(port)).toEqual({
          ok: false,
          error: `127.0.0.1:${port} could not be reached as a web server (the connection failed, was refused or had no answer within 0.3 seconds)`,
          // The same id for all three: the reader's language tells no more than the English.
          errorCode: "alerts.server.unreachable",
          errorValues: { host: `127.0.0.1:${port}`, seconds: 0.3 },
        });
      }
    } finally {
      silent.stop(true);
      ssh.stop(true);
    }
  });

  test("a few tests per minute per user: then 429 with Retry-After and a sentence", async () => {
    const h = harness({ ALERTS_ALLOW_LOOPBACK: "true" });
    const a = await h.register();
    const b = await h.register();
    const ch = (await addChannel(h, a.token, webhook(`${fake.url}/hook/rate`))).body;
    const chB = (await addChannel(h, b.token, webhook(`${fake.url}/hook/rate-b`))).body;
    for (let i = 0; i < 5; i++) {
      expect((await testChannel(h, a.token, ch.id)).body).toEqual({ ok: true });
    }
    const sent = fake.requests.length;
    const refused = await testChannel(h, a.token, ch.id);
    expect(refused.status).toBe(429);
    expect(refused.res.headers.get("retry-after")).toBe("60");
    expect(refused.body).toEqual({
      error: "Too many alert tests: 5 a minute at most. Try again in 60 seconds.",
      code: "alert_tests_limit",
      values: { max: 5, seconds: 60 },
    } as never);
    expect(fake.requests.length).toBe(sent); // nothing was sent
    // Another user has their own count; a minute later the user may test again.
    expect((await testChannel(h, b.token, chB.id)).body).toEqual({ ok: true });
    clock = new Date(clock.getTime() + 60_000);
    expect((await testChannel(h, a.token, ch.id)).body).toEqual({ ok: true });
  });

  test("Web Push endpoints: https to a push service only", async () => {
    const h = harness();
    const a = await h.register();
    const push = (endpoint: string) =>
      addChannel(h, a.token, { type: "webpush", subscription: pushSubscription(endpoint) });
    for (const endpoint of [
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://push.example.com/send/abc",
      "https://fcm.googleapis.com.push.example.com/x",
      "https://192.168.1.20/push/x",
      "https://home.test/push/x",
    ]) {
      const res = await push(endpoint);
      expect(res.status, endpoint).toBe(400);
      expect(res.body.error, endpoint).toBe(
        "A push endpoint must be an https:// address of a browser's push service (Google, Mozilla, Apple or Microsoft)",
      );
    }
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://web.push.apple.com/QGm2x",
      "https://wns2-par02p.notify.windows.com/w/?token=abc",
    ]) {
      expect((await push(endpoint)).status, endpoint).toBe(201);
    }
  });
});

describe("sign-in guesses are limited per account across addresses", () => {
  test("5 aliases no longer get 20 guesses; the right password from a new address waits; the owner's address still signs in", async () => {
    // 12 password checks: a generous limit for a busy machine.
    const h = harness({ TRUST_PROXY: "true" });
    await h.register(); // the admin
    const reg = await call(h, "POST", "/api/auth/register", {
      body: { email: "owner@example.com", password: "right-pass-1", displayname: "Owner" },
      headers: { "x-forwarded-for": "192.168.1.50" },
    });
    expect(reg.status).toBe(201);
    const login = (password: string, ip: string) =>
      call(h, "POST", "/api/auth/login", {
        body: { email: "owner@example.com", password },
        headers: { "x-forwarded-for": ip },
      });
    let guesses = 0;
    for (let alias = 0; alias < 5; alias++) {
      for (let i = 0; i < 4; i++) {
        const res = await login(`guess-${alias}-${i}`, `203.0.113.${alias + 1}`);
        if (res.status === 401) guesses++;
        else expect(res.status).toBe(429);
      }
    }
    expect(guesses).toBe(10);
    const right = await login("right-pass-1", "203.0.113.77");
    expect(right.status).toBe(429);
    expect(right.body.error).toMatch(
      /^Too many failed sign-in attempts for this account\. Try again in \d+ minutes?\.$/,
    );
    expect(Number(right.res.headers.get("retry-after"))).toBeGreaterThan(0);
    // The owner, from the address they signed up from, is not locked out.
    expect((await login("right-pass-1", "192.168.1.50")).status).toBe(200);
  }, 60_000);

  test("after a restart (counts and memory gone), an address with a session of the account is still the owner's", async () => {
    const first = harness({ TRUST_PROXY: "true" });
    await first.register(); // the admin
    const reg = await call(first, "POST", "/api/auth/register", {
      body: { email: "owner@example.com", password: "right-pass-1", displayname: "Owner" },
      headers: { "x-forwarded-for": "192.168.1.50" },
    });
    expect(reg.status).toBe(201);
    const h = harness({ TRUST_PROXY: "true", DATA_DIR: first.config.dataDir });
    const login = (password: string, ip: string) =>
      call(h, "POST", "/api/auth/login", {
        body: { email: "owner@example.com", password },
        headers: { "x-forwarded-for": ip },
      });
    for (let i = 0; i < 10; i++) {
      expect((await login(`guess-${i}`, `203.0.113.${(i % 2) + 1}`)).status).toBe(401);
    }
    expect((await login("right-pass-1", "203.0.113.3")).status).toBe(429);
    expect((await login("right-pass-1", "192.168.1.50")).status).toBe(200);
  }, 60_000);

  test("the per-address limit stays: 5 wrong guesses from one address, then 429", async () => {
    const h = harness({ TRUST_PROXY: "true" });
    const u = await h.register("one@example.com", "right-pass-1");
    for (let i = 0; i < 5; i++) {
      const res = await call(h, "POST", "/api/auth/login", {
        body: { email: u.email, password: `g${i}` },
        headers: { "x-forwarded-for": "198.51.100.4" },
      });
      expect(res.status).toBe(401);
    }
    const res = await call(h, "POST", "/api/auth/login", {
      body: { email: u.email, password: "right-pass-1" },
      headers: { "x-forwarded-for": "198.51.100.4" },
    });
    expect(res.status).toBe(429);
  }, 60_000);
});

describe("deeply nested JSON", () => {
  test("30,000 levels (60 KB) are a 400 with a sentence, not a 500", async () => {
    const h = harness();
    const u = await h.register();
    const arrays = `${"[".repeat(30_000)}${"]".repeat(30_000)}`;
    const objects = `{"email":"a@b.c","password":${'{"a":'.repeat(30_000)}1${"}".repeat(30_000)}}`;
    for (const [url, raw, token] of [
      ["/api/auth/login", arrays, null],
      ["/api/auth/login", objects, null],
      ["/api/orders", objects, u.token],
    ] as const) {
      const res = await call(h, "POST", url, {
        raw,
        token,
        headers: { "content-type": "application/json" },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toBe(
        "The request body is nested too deeply (at most 16 levels of objects and lists)",
      );
    }
    // Brackets inside strings are text, not nesting.
    const res = await call(h, "POST", "/api/auth/login", {
      body: { email: u.email, password: "[".repeat(1000) },
    });
    expect(res.status).toBe(401);
  });
});

test("cleanStrings walks any depth without recursion", () => {
  const root: { a?: unknown; s?: string } = {};
  let node = root;
  for (let i = 0; i < 100_000; i++) {
    const next = {};
    node.a = [next];
    node = next as typeof root;
  }
  node.s = "bell\u0007 and \u202Ebidi";
  expect(() => cleanStrings(root)).not.toThrow();
  expect(node.s).toBe("bell and bidi");
});

describe("the VAPID subject is not the administrator's address", () => {
  const vapidSub = (authorization: string | undefined) => {
    const jwt = /t=([^,\s]+)/.exec(authorization ?? "")?.[1] ?? "";
    return (
      JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()) as { sub: string }
    ).sub;
  };
  async function pushTest(env: Record<string, string>) {
    const h = harness({ ALERTS_ALLOW_LOOPBACK: "true", ...env });
    const admin = await h.register("admin@realmail.example.org");
    const ch = await addChannel(h, admin.token, {
      type: "webpush",
      subscription: pushSubscription(`${fake.url}/push/${crypto.randomUUID()}`),
    });
    expect(ch.status).toBe(201);
    expect((await testChannel(h, admin.token, ch.body.id)).body).toEqual({ ok: true });
    return vapidSub(fake.requests.at(-1)?.headers.authorization);
  }

  test("PUBLIC_URL, else WEB_PUSH_CONTACT, else a placeholder; never the admin's mailto:", async () => {
    expect(await pushTest({ PUBLIC_URL: "http://192.168.1.5:3000" })).toBe(
      "mailto:grapevine@example.com",
    );
    expect(await pushTest({ PUBLIC_URL: "https://vine.example.org" })).toBe(
      "https://vine.example.org",
    );
    expect(await pushTest({ WEB_PUSH_CONTACT: "mailto:push@example.net" })).toBe(
      "mailto:push@example.net",
    );
  });
});

describe("metadata addresses, also inside IPv6 forms", () => {
  test("refused whatever the spelling", async () => {
    const h = harness({ ALERTS_ALLOW_LOOPBACK: "true" });
    const a = await h.register();
    for (const url of [
      "http://100.100.100.200/latest/meta-data",
      "http://192.0.0.192/opc/v2/instance",
      "http://[::a9fe:a9fe]/latest",
      "http://[::ffff:169.254.169.254]/latest",
      "http://[64:ff9b::a9fe:a9fe]/latest",
      "http://[64:ff9b::100.100.100.200]/latest",
      "http://[2002:a9fe:a9fe::1]/latest",
      "http://[fd00:ec2::254]/latest",
      "http://mapped-metadata.test/latest",
      "http://nat64-metadata.test/latest",
    ]) {
      const res = await addChannel(h, a.token, webhook(url));
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatch(/link-local or cloud metadata address/);
    }
  });
});

describe("ntfy credentials belong in their own (encrypted) fields", () => {
  test("a server address with user:password@ or ?auth= is refused at save", async () => {
    const h = harness();
    const a = await h.register();
    const sentence =
      "The ntfy server address cannot hold a user name, password or ?auth= token: put them in the access token or user name and password fields, which are stored encrypted";
    for (const serverUrl of [
      "https://alice:s3cret@ntfy.example.com",
      "https://alice@ntfy.example.com",
      "https://ntfy.example.com/?auth=QmFzaWMgdGVzdA",
      "https://ntfy.example.com/?x=1&AUTH=abc",
    ]) {
      const res = await addChannel(h, a.token, { type: "ntfy", serverUrl, topic: "t" });
      expect(res.status, serverUrl).toBe(400);
      expect(res.body.error).toBe(sentence);
    }
    const ok = await addChannel(h, a.token, {
      type: "ntfy",
      serverUrl: "https://ntfy.example.com",
      topic: "t",
    });
    expect(ok.status).toBe(201);
    const put = await call(h, "PUT", `/api/user/alert-channels/${ok.body.id}`, {
      token: a.token,
      body: { serverUrl: "https://bob:pw@ntfy.example.com" },
    });
    expect(put.status).toBe(400);
    expect(put.body.error).toBe(sentence);
  });

  test("CR or LF in a token or user name is refused at save", async () => {
    const h = harness();
    const a = await h.register();
    const cases: [Record<string, unknown>, string][] = [
      [{ token: "tk_abc\r\nX-Injected: 1" }, "The access token cannot contain line breaks"],
      [{ token: "tk_abc\ndef" }, "The access token cannot contain line breaks"],
      [{ username: "alice\r\nbob", password: "pw" }, "The user name cannot contain line breaks"],
    ];
    for (const [fields, message] of cases) {
      const res = await addChannel(h, a.token, {
        type: "ntfy",
        serverUrl: "https://ntfy.example.com",
        topic: "t",
        ...fields,
      });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    expect(h.db.$client.query("SELECT count(*) AS n FROM alert_channels").get()).toEqual({ n: 0 });
  });
});

describe("media links end with the session", () => {
  test("a ?token= link issued before sign-out stops working; another session's links do not", async () => {
    const h = harness();
    const u = await h.register("media@example.com", "secret1");
    const second = (
      await call<{ token: string }>(h, "POST", "/api/auth/login", {
        body: { email: u.email, password: "secret1" },
      })
    ).body.token;
    const order = await call<{ orderid: number }>(h, "POST", "/api/orders", {
      token: u.token,
      body: { productname: "Desk lamp", asin: "B000LAMP01", status: "Received" },
    });
    const fd = new FormData();
    fd.append("images", new File([png()], "a.png", { type: "image/png" }));
    const up = await call<{ urls: string[] }>(
      h,
      "POST",
      `/api/orders/${order.body.orderid}/review/images`,
      { token: u.token, raw: fd },
    );
    const url = up.body.urls[0] as string;
    const mediaToken = async (token: string) =>
      (await call<{ token: string }>(h, "GET", "/api/media/token", { token })).body.token;
    const first = await mediaToken(u.token);
    const other = await mediaToken(second);
    expect((await h.req("GET", `${url}?token=${first}`)).status).toBe(200);
    expect((await h.req("GET", `${url}?token=${other}`)).status).toBe(200);

    expect((await call(h, "POST", "/api/auth/logout", { token: u.token })).status).toBe(200);
    const ended = await call(h, "GET", `${url}?token=${first}`);
    expect(ended.status).toBe(401);
    expect(ended.body.error).toBe("This media link has expired or is not valid; reload the page");
    expect((await h.req("GET", `${url}?token=${other}`)).status).toBe(200);
  });
});

describe("sign-ups per address", () => {
  test("3 an hour from one address, then 429 with Retry-After and a sentence; nothing stored", async () => {
    // SIGNUP_HOURLY_LIMIT blank: the default (the harness raises it for the other tests).
    const h = harness({ TRUST_PROXY: "true", SIGNUP_HOURLY_LIMIT: "" });
    const signUp = (i: number, ip: string) =>
      call(h, "POST", "/api/auth/register", {
        body: { email: `s${i}@example.com`, password: "secret1", displayname: "Some One" },
        headers: { "x-forwarded-for": ip },
      });
    for (let i = 0; i < 3; i++) expect((await signUp(i, "198.51.100.7")).status).toBe(201);
    const res = await signUp(3, "198.51.100.7");
    expect(res.status).toBe(429);
    expect(res.body.error).toBe("Too many sign-ups from this address. Try again in 60 minutes.");
    expect(Number(res.res.headers.get("retry-after"))).toBeGreaterThan(3500);
    expect(
      h.db.$client.query("SELECT count(*) AS n FROM users WHERE email = 's3@example.com'").get(),
    ).toEqual({ n: 0 });
    expect((await signUp(4, "198.51.100.8")).status).toBe(201);
  });
});
