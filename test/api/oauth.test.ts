/**
 * Connect Gmail with Google OAuth: GET /api/auth/google and its callback, for real against a local
 * fake of Google's endpoints (test/support/fake-google.ts) and a real Dovecot whose oauth2 passdb
 * asks the fake's introspection endpoint (test/support/dovecot.ts): authorize → callback → token
 * → OAUTHBEARER/XOAUTH2 login → IDLE → an appended Amazon mail becomes an order. Then the ways it
 * fails: not configured, bad or reused state, another browser, PKCE mismatch, access denied, no
 * refresh token or mail scope, a revoked refresh token (the Expired state), Google's 500s.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import { ConfigError, loadConfig } from "../../src/config.ts";
import type { MailboxStatus, Notification, Order, UserData } from "../../src/contract/index.ts";
import {
  redirectAcceptedByGoogle,
  STATE_COOKIE,
} from "../../src/features/mailbox/gmail-oauth.service.ts";
import { createSecrets } from "../../src/lib/secrets.ts";
import { redactUrl } from "../../src/log.ts";
import { ImapError } from "../../src/mail/imap/client.ts";
import {
  codeChallengeOf,
  createAccessTokens,
  createGoogleClient,
  GMAIL_SCOPE,
  NOT_CONFIGURED,
} from "../../src/mail/oauth/google.ts";
import { type Dovecot, startDovecot } from "../support/dovecot.ts";
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  type FakeGoogle,
  startFakeGoogle,
} from "../support/fake-google.ts";
import { dovecotSuite, type ImapHarness } from "../support/imap-suite.ts";
import { waitFor } from "../support/wait.ts";
import { call } from "./helpers.ts";
import { amazonMail } from "./mail-messages.ts";

const PUBLIC_URL = "http://localhost:3000";
const CALLBACK = `${PUBLIC_URL}/api/auth/google/callback`;
const EXPIRED =
  "Gmail refused the saved credentials. Connect your Gmail account again in Account Settings.";

/**
 * Google accounts: each test signs in as its own (any address logs in with a token; the static
 * userdb gives it a maildir). `APPENDER` also has a password, to append mail.
 */
const APPENDER = { user: "gus@gmail.test", pass: "pw-gus" };
let nextAccount = 0;
const account = () => `g${++nextAccount}-${Date.now()}@gmail.test`;

let google: FakeGoogle;
beforeAll(() => {
  google = startFakeGoogle();
});
const suite = dovecotSuite(
  () => ({ users: [APPENDER], oauth2: { introspectionUrl: google.introspectUrl } }),
  20_000,
);
afterAll(() => {
  google?.stop();
});
afterEach(() => {
  Object.assign(google, {
    deny: false,
    grantScope: null,
    omitRefreshToken: false,
    omitIdToken: false,
    expiresIn: 3599,
    refreshFailure: null,
    refuseAllAccess: false,
  });
}, 20_000);

function googleEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: FAKE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    PUBLIC_URL,
    GOOGLE_AUTH_URL: google.authUrl,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    GOOGLE_USERINFO_URL: google.userinfoUrl,
    ...extra,
  };
}

function harness(extra: Record<string, string> = {}, d?: Dovecot): ImapHarness {
  return suite.harness({ env: googleEnv(extra) }, d);
}

type Started = { authUrl: string; state: string; cookie: string };

/** GET /api/auth/google as the user: the address, its state and the browser's state cookie. */
async function startAuth(hh: ImapHarness, token: string): Promise<Started> {
  const r = await call<{ authUrl: string }>(hh, "GET", "/api/auth/google", { token });
  expect(r.status).toBe(200);
  const setCookie = r.res.headers.get("set-cookie") ?? "";
  const m = new RegExp(`${STATE_COOKIE}=([^;]+)`).exec(setCookie);
  if (!m?.[1]) throw new Error(`no state cookie in ${setCookie}`);
  const state = new URL(r.body.authUrl).searchParams.get("state") ?? "";
  return { authUrl: r.body.authUrl, state, cookie: `${STATE_COOKIE}=${m[1]}` };
}

/** The browser at Google: follows the address, answers the callback address Google sends back. */
async function consent(authUrl: string, as: string): Promise<string> {
  google.account = as;
  const res = await fetch(authUrl, { redirect: "manual" });
  expect(res.status).toBe(302);
  const back = res.headers.get("location") ?? "";
  expect(back.startsWith(`${CALLBACK}?`)).toBe(true);
  const u = new URL(back);
  return u.pathname + u.search;
}

/** The browser back at Grapevine: the callback's redirect target. */
async function callback(hh: ImapHarness, pathAndQuery: string, cookie?: string) {
  const res = await hh.req("GET", pathAndQuery, { headers: cookie ? { cookie } : {} });
  expect(res.status).toBe(302);
  return { location: res.headers.get("location"), setCookie: res.headers.get("set-cookie") ?? "" };
}

/** The whole flow for a new user; resolves once the mailbox idles. */
async function connectWithGoogle(hh: ImapHarness, as: string) {
  const u = await hh.register();
  const s = await startAuth(hh, u.token);
  const back = await consent(s.authUrl, as);
  const r = await callback(hh, back, s.cookie);
  expect(r.location).toBe(`${PUBLIC_URL}/account?oauth=success`);
  await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE", 8000);
  return { ...u, ...s, back };
}

const statusOf = (hh: ImapHarness, token: string) =>
  call<MailboxStatus>(hh, "GET", "/api/imap/status", { token });
const settingsOf = async (hh: ImapHarness, token: string) =>
  (await call<UserData>(hh, "GET", "/api/user/data", { token })).body.emailSettings;
const accountRows = (hh: ImapHarness) =>
  hh.db.$client.query("SELECT * FROM mailbox_accounts").all() as Array<{
    user_id: number;
    auth_type: string;
    email_address: string;
    secret_enc: string | null;
    auth_state: string;
    is_connected: number;
  }>;
const stateRows = (hh: ImapHarness) =>
  hh.db.$client.query("SELECT * FROM oauth_states").all() as Array<{
    state: string;
    user_id: number;
    code_verifier: string;
    created_at: string;
  }>;
const criticals = (hh: ImapHarness, userId: number): Notification[] =>
  hh.services.notifications.list(userId).filter((n) => n.level === "critical");
const ordersOf = (hh: ImapHarness, userId: number): Order[] =>
  hh.services.orders.list(userId, { status: "all", q: "", sort: "oldest", limit: 500, offset: 0 })
    .orders;
const tokenRequests = (grantType: string) =>
  google.requests.filter((r) => r.path === "/token" && r.grantType === grantType);

let seq = 700;
function vineMail() {
  seq++;
  const order = `114-${String(seq).padStart(7, "0")}-${String(seq * 7).padStart(7, "0")}`;
  const name = `OAuth Gadget ${seq}`;
  return {
    order,
    name,
    raw: amazonMail({
      kind: "ordered",
      order,
      items: [{ name, asin: `B2${String(seq).padStart(8, "0")}`, price: "0.00" }],
      total: "0.00",
      messageId: `oauth-${order}@amazon.test`,
    }),
  };
}

/** Reconnects the user's supervisor now (the next connect asks for an access token). */
function reconnect(hh: ImapHarness, userId: number) {
  const sup = hh.services.mailbox.manager.get(userId);
  if (!sup) throw new Error("no supervisor");
  sup.reconnect();
}

describe("configuration and logs", () => {
  test("bad Google or PUBLIC_URL settings stop the start with one line naming the variable", () => {
    for (const name of [
      "PUBLIC_URL",
      "GOOGLE_AUTH_URL",
      "GOOGLE_TOKEN_URL",
      "GOOGLE_USERINFO_URL",
    ]) {
      for (const bad of ["not a url", "ftp://example.com/x", "https://example.com/?a=1"]) {
        let message = "";
        try {
          loadConfig({ DATA_DIR: "/tmp/x", [name]: bad });
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          message = (err as Error).message;
        }
        expect(message).toContain(name);
        expect(message.includes("\n")).toBe(false);
      }
    }
    const c = loadConfig({ DATA_DIR: "/tmp/x", PUBLIC_URL: "https://vine.example.com/" });
    expect(c.publicUrl).toBe("https://vine.example.com");
    expect(c.google).toEqual({
      clientId: null,
      clientSecret: null,
      authUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: "https://oauth2.googleapis.com/token",
      userinfoUrl: "https://openidconnect.googleapis.com/v1/userinfo",
    });
    expect(redirectAcceptedByGoogle("http://localhost:3000")).toBe(true);
    expect(redirectAcceptedByGoogle("http://127.0.0.1:3000")).toBe(true);
    expect(redirectAcceptedByGoogle("https://vine.example.com")).toBe(true);
    expect(redirectAcceptedByGoogle("http://192.168.1.10:3000")).toBe(false);
  });

  test("request log lines never show OAuth codes, states or tokens", () => {
    expect(redactUrl("/api/auth/google/callback?state=s3cr&code=4/0Abc&scope=openid%20email")).toBe(
      "/api/auth/google/callback?state=[redacted]&code=[redacted]&scope=openid%20email",
    );
    expect(redactUrl("/x?code=a&state=b")).toBe("/x?code=[redacted]&state=[redacted]");
    expect(redactUrl("/api/events/stream?token=abc")).toBe("/api/events/stream?token=[redacted]");
    expect(redactUrl("/x?access_token=a&refresh_token=b&id_token=c&mode=1")).toBe(
      "/x?access_token=[redacted]&refresh_token=[redacted]&id_token=[redacted]&mode=1",
    );
  });
});

describe("GET /api/config: whether Gmail sign-in with Google is offered", () => {
  test("true with a Google client and PUBLIC_URL; false without, so only app passwords are shown", async () => {
    const on = harness();
    const yes = await call<{ gmailOAuth: boolean }>(on, "GET", "/api/config", {
      token: (await on.register()).token,
    });
    expect(yes.body.gmailOAuth).toBe(true);
    const off = suite.harness({ env: { PUBLIC_URL } });
    try {
      const no = await call<{ gmailOAuth: boolean }>(off, "GET", "/api/config", {
        token: (await off.register()).token,
      });
      expect(no.body.gmailOAuth).toBe(false);
    } finally {
      await off.close();
    }
  });
});

describe("GET /api/auth/google", () => {
  test("needs a token; the accounts routes under /api/auth keep working", async () => {
    const hh = harness();
    const r = await call(hh, "GET", "/api/auth/google");
    expect(r).toMatchObject({ status: 401, body: { error: "Access token required" } });
    // No way around the check (a trailing slash is simply not a route).
    const slash = await call(hh, "GET", "/api/auth/google/");
    expect(slash.status).toBe(404);
    expect(stateRows(hh)).toHaveLength(0);
    const u = await hh.register();
    const login = await call(hh, "POST", "/api/auth/login", {
      body: { email: u.email, password: u.password },
    });
    expect(login.status).toBe(200);
    const out = await call(hh, "POST", "/api/auth/logout", { token: u.token });
    expect(out.status).toBe(200);
  }, 15_000);

  test("not configured: 503 with what the admin must set (each of the three missing)", async () => {
    for (const missing of ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET", "PUBLIC_URL"]) {
      const hh = harness({ [missing]: "" });
      const u = await hh.register();
      const r = await call(hh, "GET", "/api/auth/google", { token: u.token });
      expect([missing, r.status]).toEqual([missing, 503]);
      expect(r.body).toEqual({ error: NOT_CONFIGURED });
      expect(stateRows(hh)).toHaveLength(0);
      await hh.close();
    }
    expect(NOT_CONFIGURED).toBe(
      "Gmail OAuth is not configured on this server. The administrator must set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and PUBLIC_URL (see README: Connect Gmail with Google OAuth), or connect with a Gmail app password instead.",
    );
  }, 20_000);

  test("the address carries every parameter, a fresh state each time and an S256 challenge of the stored verifier", async () => {
    const hh = harness();
    const u = await hh.register();
    const a = await startAuth(hh, u.token);
    const b = await startAuth(hh, u.token);
    const url = new URL(a.authUrl);
    expect(url.origin + url.pathname).toBe(google.authUrl);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      response_type: "code",
      client_id: FAKE_CLIENT_ID,
      redirect_uri: CALLBACK,
      scope: "https://mail.google.com/ openid email",
      access_type: "offline",
      prompt: "consent",
      include_granted_scopes: "true",
      code_challenge_method: "S256",
    });
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.state).not.toBe(b.state);
    expect(a.authUrl).not.toContain(FAKE_CLIENT_SECRET);

    const rows = stateRows(hh);
    expect(rows.map((r) => r.state).sort()).toEqual([a.state, b.state].sort());
    const row = rows.find((r) => r.state === a.state)!;
    expect(row.user_id).toBe(u.userid);
    expect(row.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(q.code_challenge).toBe(codeChallengeOf(row.code_verifier));
    expect(q.code_challenge).not.toBe(row.code_verifier);
    expect(a.authUrl).not.toContain(row.code_verifier);

    // The browser binding: HttpOnly, SameSite=Lax, only sent to the callback, 10 minutes.
    const r = await call(hh, "GET", "/api/auth/google", { token: u.token });
    const setCookie = r.res.headers.get("set-cookie") ?? "";
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/api/auth/google/callback");
    expect(setCookie).toContain("Max-Age=600");
    expect(r.res.headers.get("cache-control")).toBe("no-store");

    // States older than 10 minutes are dropped; a user keeps at most 5 open ones.
    hh.db.$client
      .query("UPDATE oauth_states SET created_at = ? WHERE state = ?")
      .run(new Date(Date.now() - 11 * 60_000).toISOString(), a.state);
    for (let i = 0; i < 6; i++) await startAuth(hh, u.token);
    const after = stateRows(hh);
    expect(after.some((x) => x.state === a.state)).toBe(false);
    expect(after).toHaveLength(5);
  }, 15_000);
});

describe("the callback", () => {
  test("full flow: consent → callback → OAUTHBEARER login at Dovecot → IDLE → an Amazon mail becomes an order", async () => {
    const hh = harness({ LOG_LEVEL: "info" });
    const gmail = APPENDER.user;
    const u = await hh.register();
    const events = hh.watchEvents(u.userid);
    const s = await startAuth(hh, u.token);
    const back = await consent(s.authUrl, gmail);
    const backUrl = new URL(back, PUBLIC_URL);
    const code = backUrl.searchParams.get("code")!;
    expect(backUrl.searchParams.get("state")).toBe(s.state);

    const r = await callback(hh, back, s.cookie);
    expect(r.location).toBe(`${PUBLIC_URL}/account?oauth=success`);
    // The state cookie is cleared; the state row is gone (single use).
    expect(r.setCookie).toContain(`${STATE_COOKIE}=;`);
    expect(stateRows(hh)).toHaveLength(0);

    // The code was exchanged once, with the PKCE verifier and our redirect URI.
    const exchange = tokenRequests("authorization_code");
    expect(exchange).toHaveLength(1);
    expect(exchange[0]!.status).toBe(200);
    expect(exchange[0]!.params).toMatchObject({ code, redirect_uri: CALLBACK });

    const settings = await settingsOf(hh, u.token);
    expect(settings).toMatchObject({
      provider: "gmail",
      isConnected: true,
      emailAddress: gmail,
      selectedFolder: "INBOX",
      accessToken: "present",
    });
    const [row] = accountRows(hh);
    expect(row).toMatchObject({ user_id: u.userid, auth_type: "oauth", email_address: gmail });
    expect(row!.secret_enc!.startsWith("v1:")).toBe(true);
    const issued = google.issued();
    const refreshToken = createSecrets({ key: null, dataDir: hh.config.dataDir }).decrypt(
      row!.secret_enc!,
    );
    expect(issued.refreshTokens).toContain(refreshToken);
    expect(events.some((e) => e.table === "user")).toBe(true);

    // IDLE over an OAuth login (imapflow prefers OAUTHBEARER when offered).
    await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE", 8000);
    expect(suite.dc.log()).toContain(`user=<${gmail}>, method=OAUTHBEARER`);
    // The first connects used the access token of the exchange: no refresh yet.
    expect(google.refreshCount()).toBe(0);

    const mail = vineMail();
    await suite.dc.append(gmail, mail.raw);
    const orders = await waitFor(
      () => {
        const list = ordersOf(hh, u.userid);
        return list.length > 0 ? list : null;
      },
      "the order from the appended mail",
      8000,
    );
    expect(orders.map((o) => [o.amazonordernumber, o.productname])).toEqual([
      [mail.order, mail.name],
    ]);

    // Nothing secret in the database file, the API answers or the log.
    hh.db.$client.exec("PRAGMA wal_checkpoint(FULL)");
    const dbBytes = Buffer.concat(
      [hh.config.dbFile, `${hh.config.dbFile}-wal`]
        .filter((f) => fs.existsSync(f))
        .map((f) => fs.readFileSync(f)),
    ).toString("latin1");
    expect(dbBytes).not.toContain(refreshToken);
    for (const t of issued.accessTokens) expect(dbBytes).not.toContain(t);
    const data = JSON.stringify((await call(hh, "GET", "/api/user/data", { token: u.token })).body);
    const exp = JSON.stringify(
      (await call(hh, "GET", "/api/user/export", { token: u.token })).body,
    );
    for (const text of [data, exp]) {
      expect(text).not.toContain(refreshToken);
      expect(text).toContain(gmail);
    }
    const logText = await waitFor(() => {
      const f = hh.logger.activeFile();
      const t = f && fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "";
      return t.includes("/api/auth/google/callback?") ? t : null;
    }, "the callback's request log line");
    const line = logText.split("\n").find((l) => l.includes("/api/auth/google/callback?"))!;
    expect(line).toContain("state=[redacted]");
    expect(line).toContain("code=[redacted]");
    for (const secret of [
      code,
      s.state,
      refreshToken,
      ...issued.accessTokens,
      FAKE_CLIENT_SECRET,
    ]) {
      expect(logText).not.toContain(secret);
    }
    expect(logText).toContain("Gmail connected with OAuth");
  }, 30_000);

  test("XOAUTH2 when the server offers only that", async () => {
    const d2 = await startDovecot({
      users: [],
      oauth2: { introspectionUrl: google.introspectUrl, mechanisms: ["xoauth2"] },
    });
    try {
      const hh = harness({}, d2);
      const gmail = account();
      await connectWithGoogle(hh, gmail);
      expect(d2.log()).toContain(`user=<${gmail}>, method=XOAUTH2`);
      await hh.close();
    } finally {
      await d2.stop();
    }
  }, 30_000);

  test("the address comes from userinfo when the token answer has no ID token", async () => {
    const hh = harness();
    google.omitIdToken = true;
    const gmail = account();
    const before = google.requests.filter((r) => r.path === "/userinfo").length;
    const u = await connectWithGoogle(hh, gmail);
    expect(google.requests.filter((r) => r.path === "/userinfo").length).toBe(before + 1);
    expect(await settingsOf(hh, u.token)).toMatchObject({ isConnected: true, emailAddress: gmail });
  }, 20_000);

  test("an unknown, missing or reused state → oauth=error and nothing saved", async () => {
    const hh = harness();
    const gmail = account();
    const u = await hh.register();
    const s = await startAuth(hh, u.token);
    const back = await consent(s.authUrl, gmail);
    const code = new URL(back, PUBLIC_URL).searchParams.get("code")!;

    const exchangesBefore = tokenRequests("authorization_code").length;
    for (const path of [
      `/api/auth/google/callback?code=${encodeURIComponent(code)}&state=not-a-state`,
      `/api/auth/google/callback?code=${encodeURIComponent(code)}`,
      "/api/auth/google/callback",
    ]) {
      const r = await callback(hh, path, s.cookie);
      expect([path, r.location]).toEqual([path, `${PUBLIC_URL}/account?oauth=error`]);
    }
    expect(tokenRequests("authorization_code").length).toBe(exchangesBefore);
    expect(accountRows(hh)).toHaveLength(0);
    // The real state is still usable once.
    expect((await callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=success`,
    );
    await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE", 8000);
    // ...and only once: a replay changes nothing and asks Google for nothing.
    const exchanges = tokenRequests("authorization_code").length;
    const saved = JSON.stringify(accountRows(hh));
    expect((await callback(hh, back, s.cookie)).location).toBe(`${PUBLIC_URL}/account?oauth=error`);
    expect(tokenRequests("authorization_code").length).toBe(exchanges);
    expect(JSON.stringify(accountRows(hh))).toBe(saved);
  }, 20_000);

  test("an expired state (over 10 minutes) → oauth=error", async () => {
    const hh = harness();
    const u = await hh.register();
    const s = await startAuth(hh, u.token);
    const back = await consent(s.authUrl, account());
    hh.db.$client
      .query("UPDATE oauth_states SET created_at = ?")
      .run(new Date(Date.now() - 11 * 60_000).toISOString());
    expect((await callback(hh, back, s.cookie)).location).toBe(`${PUBLIC_URL}/account?oauth=error`);
    expect(accountRows(hh)).toHaveLength(0);
    expect(stateRows(hh)).toHaveLength(0);
  }, 15_000);

  test("user A's state never attaches a mailbox to user B, and needs A's browser", async () => {
    const hh = harness();
    const a = await hh.register();
    const b = await hh.register();
    const gmail = account();

    // B (another browser, without A's state cookie) brings A's callback: refused, state burnt.
    const s1 = await startAuth(hh, a.token);
    const back1 = await consent(s1.authUrl, gmail);
    const bCookie = (await startAuth(hh, b.token)).cookie;
    for (const cookie of [undefined, bCookie]) {
      const res = await hh.req("GET", back1, {
        token: b.token,
        headers: cookie ? { cookie } : {},
      });
      expect(res.headers.get("location")).toBe(`${PUBLIC_URL}/account?oauth=error`);
    }
    expect(accountRows(hh)).toHaveLength(0);
    expect((await callback(hh, back1, s1.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=error`,
    );

    // A's own browser completes it, even while carrying B's bearer token: the state decides.
    const s2 = await startAuth(hh, a.token);
    const back2 = await consent(s2.authUrl, gmail);
    const res = await hh.req("GET", back2, { token: b.token, headers: { cookie: s2.cookie } });
    expect(res.headers.get("location")).toBe(`${PUBLIC_URL}/account?oauth=success`);
    expect(accountRows(hh).map((r) => r.user_id)).toEqual([a.userid]);
    expect(await settingsOf(hh, b.token)).toBeNull();
    expect(await settingsOf(hh, a.token)).toMatchObject({ isConnected: true, emailAddress: gmail });
  }, 20_000);

  test("a PKCE mismatch is refused by Google → oauth=error", async () => {
    const hh = harness();
    const u = await hh.register();
    const s = await startAuth(hh, u.token);
    // Someone swaps the challenge on the way to Google: our verifier no longer matches.
    const tampered = new URL(s.authUrl);
    tampered.searchParams.set("code_challenge", codeChallengeOf("x".repeat(43)));
    const back = await consent(tampered.toString(), account());
    expect((await callback(hh, back, s.cookie)).location).toBe(`${PUBLIC_URL}/account?oauth=error`);
    const last = tokenRequests("authorization_code").at(-1)!;
    expect(last.status).toBe(400);
    expect(accountRows(hh)).toHaveLength(0);
    expect(await settingsOf(hh, u.token)).toBeNull();
  }, 15_000);

  test("access denied at Google → oauth=error, nothing saved, state used up", async () => {
    const hh = harness();
    const u = await hh.register();
    const s = await startAuth(hh, u.token);
    google.deny = true;
    const back = await consent(s.authUrl, account());
    expect(new URL(back, PUBLIC_URL).searchParams.get("error")).toBe("access_denied");
    const before = tokenRequests("authorization_code").length;
    expect((await callback(hh, back, s.cookie)).location).toBe(`${PUBLIC_URL}/account?oauth=error`);
    expect(tokenRequests("authorization_code").length).toBe(before);
    expect(accountRows(hh)).toHaveLength(0);
    expect(stateRows(hh)).toHaveLength(0);
  }, 15_000);

  test("no refresh token, or the Gmail permission unticked → oauth=error, nothing saved", async () => {
    const hh = harness();
    const u = await hh.register();
    for (const set of [
      () => {
        google.omitRefreshToken = true;
      },
      () => {
        google.grantScope = "openid email";
      },
    ]) {
      set();
      const s = await startAuth(hh, u.token);
      const back = await consent(s.authUrl, account());
      expect((await callback(hh, back, s.cookie)).location).toBe(
        `${PUBLIC_URL}/account?oauth=error`,
      );
      google.omitRefreshToken = false;
      google.grantScope = null;
    }
    expect(accountRows(hh)).toHaveLength(0);
  }, 15_000);

  test("an address Gmail's IMAP refuses is not saved (the login proves it first)", async () => {
    const hh = harness();
    const u = await hh.register();
    const s = await startAuth(hh, u.token);
    // Google hands out tokens, but the IMAP server does not accept them (introspection says no).
    const back = await consent(s.authUrl, account());
    google.expiresIn = 0;
    expect((await callback(hh, back, s.cookie)).location).toBe(`${PUBLIC_URL}/account?oauth=error`);
    expect(accountRows(hh)).toHaveLength(0);
    expect(hh.services.mailbox.manager.size()).toBe(0);
  }, 15_000);
});

describe("access tokens before every connect", () => {
  test("a revoked refresh token (invalid_grant) → Email Authorization Expired with one critical notification", async () => {
    const hh = harness();
    // Short-lived access tokens: every connect asks Google for a new one.
    google.expiresIn = 30;
    const gmail = account();
    const u = await connectWithGoogle(hh, gmail);
    const refreshesBefore = google.refreshCount();
    reconnect(hh, u.userid);
    await waitFor(() => google.refreshCount() > refreshesBefore, "a refresh on reconnect");
    await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE", 8000);
    expect(criticals(hh, u.userid)).toHaveLength(0);

    google.revoke(gmail);
    reconnect(hh, u.userid);
    await waitFor(
      async () => (await settingsOf(hh, u.token))?.isConnected === false,
      "the Expired state",
      8000,
    );
    expect(
      tokenRequests("refresh_token").some(
        (r) => r.status === 400 && r.params.refresh_token !== undefined,
      ),
    ).toBe(true);
    expect(await settingsOf(hh, u.token)).toMatchObject({
      isConnected: false,
      emailAddress: gmail,
      accessToken: null,
    });
    const st = await statusOf(hh, u.token);
    expect(st.body).toMatchObject({ status: "disconnected", lastError: EXPIRED });
    expect(accountRows(hh)[0]).toMatchObject({ auth_state: "expired", secret_enc: null });
    expect(hh.services.mailbox.manager.size()).toBe(0);
    // Exactly one critical notification; with no supervisor left nothing can add another.
    const crit = criticals(hh, u.userid);
    expect(crit).toHaveLength(1);
    expect(crit[0]!.message).toContain(gmail);

    // Connecting again with Google brings it back.
    const s = await startAuth(hh, u.token);
    const back = await consent(s.authUrl, gmail);
    expect((await callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=success`,
    );
    await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE", 8000);
    expect(await settingsOf(hh, u.token)).toMatchObject({
      isConnected: true,
      accessToken: "present",
    });
  }, 30_000);

  test("an access token revoked while still cached: the login is refused → Expired, once", async () => {
    const hh = harness();
    const gmail = account();
    const u = await connectWithGoogle(hh, gmail);
    google.revoke(gmail);
    reconnect(hh, u.userid);
    await waitFor(
      async () => (await settingsOf(hh, u.token))?.isConnected === false,
      "the Expired state",
      8000,
    );
    // The supervisor has stopped: nothing can add a second notification.
    await waitFor(() => hh.services.mailbox.manager.size() === 0, "the supervisor to stop");
    expect(criticals(hh, u.userid)).toHaveLength(1);
  }, 20_000);

  test("an access token Google ended early: one refresh, the login retried, still connected, no notification", async () => {
    const hh = harness();
    // The appender: it can also put mail in the box.
    const gmail = APPENDER.user;
    const u = await connectWithGoogle(hh, gmail);
    const refreshesBefore = google.refreshCount();
    // The cached access token dies before its expiry; the refresh token stays good.
    google.revokeAccess(gmail);
    const { active: activeBefore, inactive: inactiveBefore } = google.introspections();
    reconnect(hh, u.userid);
    await waitFor(
      () => google.introspections().active > activeBefore,
      "a login with a refreshed token",
      8000,
    );
    await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE", 8000);
    // Gmail refused the old token once; exactly one refresh made the new one.
    expect(google.introspections().inactive).toBe(inactiveBefore + 1);
    expect(google.refreshCount()).toBe(refreshesBefore + 1);
    expect(accountRows(hh)[0]).toMatchObject({ auth_state: "ok", is_connected: 1 });
    expect(await settingsOf(hh, u.token)).toMatchObject({ isConnected: true });
    expect(criticals(hh, u.userid)).toHaveLength(0);
    // Mail still becomes orders on the same connection.
    const m = vineMail();
    await suite.dc.append(APPENDER.user, m.raw);
    await waitFor(
      () => ordersOf(hh, u.userid).some((o) => o.amazonordernumber === m.order),
      "the order",
    );
  }, 30_000);

  test("a freshly refreshed token refused too → Expired, once, after exactly one refresh", async () => {
    const hh = harness();
    const gmail = account();
    const u = await connectWithGoogle(hh, gmail);
    const refreshesBefore = google.refreshCount();
    google.refuseAllAccess = true;
    reconnect(hh, u.userid);
    await waitFor(
      async () => (await settingsOf(hh, u.token))?.isConnected === false,
      "the Expired state",
      8000,
    );
    await waitFor(() => hh.services.mailbox.manager.size() === 0, "the supervisor to stop");
    expect(google.refreshCount()).toBe(refreshesBefore + 1);
    expect(accountRows(hh)[0]).toMatchObject({ auth_state: "expired" });
    expect(criticals(hh, u.userid)).toHaveLength(1);
  }, 20_000);

  test("Google's token endpoint answering 500 → still connected, retrying; back to IDLE when it recovers", async () => {
    const hh = harness();
    google.expiresIn = 30;
    const gmail = account();
    const u = await connectWithGoogle(hh, gmail);
    google.refreshFailure = 500;
    const failedBefore = tokenRequests("refresh_token").filter((r) => r.status === 500).length;
    reconnect(hh, u.userid);
    // Retried with backoff (the test timers: 100 ms doubling to 800 ms).
    await waitFor(
      () =>
        tokenRequests("refresh_token").filter((r) => r.status === 500).length >= failedBefore + 2,
      "retries of the refresh",
      8000,
    );
    const st = await statusOf(hh, u.token);
    expect(["disconnected", "connecting"]).toContain(st.body.status);
    expect(st.body.lastError).toContain("Google's token endpoint answered 500");
    expect(await settingsOf(hh, u.token)).toMatchObject({
      isConnected: true,
      accessToken: "present",
    });
    expect(accountRows(hh)[0]!.auth_state).toBe("ok");
    expect(criticals(hh, u.userid)).toHaveLength(0);

    google.refreshFailure = null;
    await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE", 8000);
    expect(criticals(hh, u.userid)).toHaveLength(0);
  }, 30_000);

  test("cached until 60 s before expiry, one refresh for concurrent connects, network errors are retryable", async () => {
    const secrets = createSecrets({ key: Buffer.alloc(32, 7), dataDir: "/nonexistent" });
    const cfg = {
      clientId: FAKE_CLIENT_ID,
      clientSecret: FAKE_CLIENT_SECRET,
      redirectUri: CALLBACK,
      authUrl: google.authUrl,
      tokenUrl: google.tokenUrl,
      userinfoUrl: google.userinfoUrl,
    };
    const log = { warn() {}, info() {}, debug() {}, error() {} } as never;
    // A refresh token from the fake.
    const hh = harness();
    const gmail = account();
    await connectWithGoogle(hh, gmail);
    const refreshToken = createSecrets({ key: null, dataDir: hh.config.dataDir }).decrypt(
      accountRows(hh)[0]!.secret_enc!,
    );
    const acct = { secretEnc: secrets.encrypt(refreshToken) };

    let clock = Date.now();
    const tokens = createAccessTokens({
      google: createGoogleClient(cfg),
      secrets,
      log,
      now: () => clock,
    });
    google.expiresIn = 3600;
    const n0 = google.refreshCount();
    const [t1, t2, t3] = await Promise.all([1, 2, 3].map(() => tokens.get(9, acct)));
    expect(google.refreshCount()).toBe(n0 + 1);
    expect(new Set([t1, t2, t3]).size).toBe(1);
    clock += 3600_000 - 61_000;
    expect(await tokens.get(9, acct)).toBe(t1!);
    expect(google.refreshCount()).toBe(n0 + 1);
    clock += 2_000; // now within 60 s of expiry
    const t4 = await tokens.get(9, acct);
    expect(t4).not.toBe(t1);
    expect(google.refreshCount()).toBe(n0 + 2);

    // Errors: kinds the supervisor understands.
    const kindOf = async (f: Parameters<typeof createGoogleClient>[1]) => {
      const t = createAccessTokens({ google: createGoogleClient(cfg, f), secrets, log });
      try {
        await t.get(1, acct);
        return "none";
      } catch (err) {
        expect(err).toBeInstanceOf(ImapError);
        return (err as ImapError).kind;
      }
    };
    const answer = (status: number, body: unknown) => ({
      fetch: async () => new Response(JSON.stringify(body), { status }),
    });
    expect(
      await kindOf({
        fetch: async () => {
          throw new TypeError("fetch failed: ECONNREFUSED");
        },
      }),
    ).toBe("network");
    expect(await kindOf(answer(503, { error: "backend_error" }))).toBe("network");
    expect(await kindOf(answer(429, { error: "rate_limit_exceeded" }))).toBe("network");
    expect(await kindOf(answer(400, { error: "invalid_grant" }))).toBe("auth");
    expect(await kindOf(answer(401, { error: "invalid_client" }))).toBe("other");
    const unconfigured = createAccessTokens({ google: null, secrets, log });
    await expect(unconfigured.get(1, acct)).rejects.toMatchObject({ kind: "other" });
    expect(GMAIL_SCOPE).toBe("https://mail.google.com/");
  }, 20_000);
});
