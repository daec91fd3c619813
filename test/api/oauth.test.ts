/**
 * Connect Gmail with Google OAuth, for real against a local fake of Google's endpoints and a real
 * Dovecot whose oauth2 passdb asks the fake (test/support/google-oauth-suite.ts): configuration
 * and logs, GET /api/config, GET /api/auth/google, and the access tokens before every connect (a
 * revoked refresh token: the Expired state; Google's 500s). The callback is in
 * oauth-callback.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { redirectAcceptedByGoogle } from "../../src/features/mailbox/gmail-oauth.service.ts";
import { redactUrl } from "../../src/log.ts";
import { ImapError } from "../../src/mail/imap/client.ts";
import {
  codeChallengeOf,
  createAccessTokens,
  createGoogleClient,
  GMAIL_SCOPE,
  NOT_CONFIGURED,
} from "../../src/mail/oauth/google.ts";
import { createSecrets } from "../../src/util/secrets.ts";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from "../support/fake-google.ts";
import {
  APPENDER,
  account,
  CALLBACK,
  EXPIRED,
  googleOAuthSuite,
  PUBLIC_URL,
} from "../support/google-oauth-suite.ts";
import { waitFor } from "../support/wait.ts";
import { call } from "./helpers.ts";

const oauth = googleOAuthSuite();
const { google, suite, harness } = oauth;

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
    expect(oauth.stateRows(hh)).toHaveLength(0);
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
      expect(r.body).toEqual({
        error: NOT_CONFIGURED,
        code: "gmail_oauth_not_configured",
        values: {},
      });
      expect(oauth.stateRows(hh)).toHaveLength(0);
      await hh.close();
    }
    expect(NOT_CONFIGURED).toBe(
      "Gmail OAuth is not configured on this server. The administrator must set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and PUBLIC_URL (see README: Connect Gmail with Google OAuth), or connect with a Gmail app password instead.",
    );
  }, 20_000);

  test("the address carries every parameter, a fresh state each time and an S256 challenge of the stored verifier", async () => {
    const hh = harness();
    const u = await hh.register();
    const a = await oauth.startAuth(hh, u.token);
    const b = await oauth.startAuth(hh, u.token);
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

    const rows = oauth.stateRows(hh);
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
    for (let i = 0; i < 6; i++) await oauth.startAuth(hh, u.token);
    const after = oauth.stateRows(hh);
    expect(after.some((x) => x.state === a.state)).toBe(false);
    expect(after).toHaveLength(5);
  }, 15_000);
});

describe("access tokens before every connect", () => {
  test("a revoked refresh token (invalid_grant) → Email Authorization Expired with one critical notification", async () => {
    const hh = harness();
    // Short-lived access tokens: every connect asks Google for a new one.
    google.expiresIn = 30;
    const gmail = account();
    const u = await oauth.connectWithGoogle(hh, gmail);
    const refreshesBefore = google.refreshCount();
    oauth.reconnect(hh, u.userid);
    await waitFor(() => google.refreshCount() > refreshesBefore, "a refresh on reconnect");
    await waitFor(
      async () => (await oauth.statusOf(hh, u.token)).body.status === "idle",
      "IDLE",
      8000,
    );
    expect(oauth.criticals(hh, u.userid)).toHaveLength(0);

    google.revoke(gmail);
    oauth.reconnect(hh, u.userid);
    await waitFor(
      async () => (await oauth.settingsOf(hh, u.token))?.isConnected === false,
      "the Expired state",
      8000,
    );
    expect(
      oauth
        .tokenRequests("refresh_token")
        .some((r) => r.status === 400 && r.params.refresh_token !== undefined),
    ).toBe(true);
    expect(await oauth.settingsOf(hh, u.token)).toMatchObject({
      isConnected: false,
      emailAddress: gmail,
      accessToken: null,
    });
    const st = await oauth.statusOf(hh, u.token);
    expect(st.body).toMatchObject({ status: "disconnected", lastError: EXPIRED });
    expect(oauth.accountRows(hh)[0]).toMatchObject({ auth_state: "expired", secret_enc: null });
    expect(hh.services.mailbox.manager.size()).toBe(0);
    // Exactly one critical notification; with no supervisor left nothing can add another.
    const crit = oauth.criticals(hh, u.userid);
    expect(crit).toHaveLength(1);
    expect(crit[0]!.message).toContain(gmail);

    // Connecting again with Google brings it back.
    const s = await oauth.startAuth(hh, u.token);
    const back = await oauth.consent(s.authUrl, gmail);
    expect((await oauth.callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=success`,
    );
    await waitFor(
      async () => (await oauth.statusOf(hh, u.token)).body.status === "idle",
      "IDLE",
      8000,
    );
    expect(await oauth.settingsOf(hh, u.token)).toMatchObject({
      isConnected: true,
      accessToken: "present",
    });
  }, 30_000);

  test("an access token revoked while still cached: the login is refused → Expired, once", async () => {
    const hh = harness();
    const gmail = account();
    const u = await oauth.connectWithGoogle(hh, gmail);
    google.revoke(gmail);
    oauth.reconnect(hh, u.userid);
    await waitFor(
      async () => (await oauth.settingsOf(hh, u.token))?.isConnected === false,
      "the Expired state",
      8000,
    );
    // The supervisor has stopped: nothing can add a second notification.
    await waitFor(() => hh.services.mailbox.manager.size() === 0, "the supervisor to stop");
    expect(oauth.criticals(hh, u.userid)).toHaveLength(1);
  }, 20_000);

  test("an access token Google ended early: one refresh, the login retried, still connected, no notification", async () => {
    const hh = harness();
    // The appender: it can also put mail in the box.
    const gmail = APPENDER.user;
    const u = await oauth.connectWithGoogle(hh, gmail);
    const refreshesBefore = google.refreshCount();
    // The cached access token dies before its expiry; the refresh token stays good.
    google.revokeAccess(gmail);
    const { active: activeBefore, inactive: inactiveBefore } = google.introspections();
    oauth.reconnect(hh, u.userid);
    await waitFor(
      () => google.introspections().active > activeBefore,
      "a login with a refreshed token",
      8000,
    );
    await waitFor(
      async () => (await oauth.statusOf(hh, u.token)).body.status === "idle",
      "IDLE",
      8000,
    );
    // Gmail refused the old token once; exactly one refresh made the new one.
    expect(google.introspections().inactive).toBe(inactiveBefore + 1);
    expect(google.refreshCount()).toBe(refreshesBefore + 1);
    expect(oauth.accountRows(hh)[0]).toMatchObject({ auth_state: "ok", is_connected: 1 });
    expect(await oauth.settingsOf(hh, u.token)).toMatchObject({ isConnected: true });
    expect(oauth.criticals(hh, u.userid)).toHaveLength(0);
    // Mail still becomes orders on the same connection.
    const m = oauth.vineMail();
    await suite.dc.append(APPENDER.user, m.raw);
    await waitFor(
      () => oauth.ordersOf(hh, u.userid).some((o) => o.amazonordernumber === m.order),
      "the order",
    );
  }, 30_000);

  test("a freshly refreshed token refused too → Expired, once, after exactly one refresh", async () => {
    const hh = harness();
    const gmail = account();
    const u = await oauth.connectWithGoogle(hh, gmail);
    const refreshesBefore = google.refreshCount();
    google.refuseAllAccess = true;
    oauth.reconnect(hh, u.userid);
    await waitFor(
      async () => (await oauth.settingsOf(hh, u.token))?.isConnected === false,
      "the Expired state",
      8000,
    );
    await waitFor(() => hh.services.mailbox.manager.size() === 0, "the supervisor to stop");
    expect(google.refreshCount()).toBe(refreshesBefore + 1);
    expect(oauth.accountRows(hh)[0]).toMatchObject({ auth_state: "expired" });
    expect(oauth.criticals(hh, u.userid)).toHaveLength(1);
  }, 20_000);

  test("Google's token endpoint answering 500 → still connected, retrying; back to IDLE when it recovers", async () => {
    const hh = harness();
    google.expiresIn = 30;
    const gmail = account();
    const u = await oauth.connectWithGoogle(hh, gmail);
    google.refreshFailure = 500;
    const failedBefore = oauth
      .tokenRequests("refresh_token")
      .filter((r) => r.status === 500).length;
    oauth.reconnect(hh, u.userid);
    // Retried with backoff (the test timers: 100 ms doubling to 800 ms).
    await waitFor(
      () =>
        oauth.tokenRequests("refresh_token").filter((r) => r.status === 500).length >=
        failedBefore + 2,
      "retries of the refresh",
      8000,
    );
    const st = await oauth.statusOf(hh, u.token);
    expect(["disconnected", "connecting"]).toContain(st.body.status);
    // Google's code and description are values; the sentence is the reader's language's.
    expect(st.body).toMatchObject({
      lastError: "Google's token endpoint answered 500 internal_failure: Backend Error",
      lastErrorCode: "mailbox.server.googleAnswered",
      lastErrorValues: {
        what: "token",
        status: 500,
        hasCode: "yes",
        code: "internal_failure",
        hasDescription: "yes",
        description: "Backend Error",
      },
    });
    expect(await oauth.settingsOf(hh, u.token)).toMatchObject({
      isConnected: true,
      accessToken: "present",
    });
    expect(oauth.accountRows(hh)[0]!.auth_state).toBe("ok");
    expect(oauth.criticals(hh, u.userid)).toHaveLength(0);

    google.refreshFailure = null;
    await waitFor(
      async () => (await oauth.statusOf(hh, u.token)).body.status === "idle",
      "IDLE",
      8000,
    );
    expect(oauth.criticals(hh, u.userid)).toHaveLength(0);
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
    await oauth.connectWithGoogle(hh, gmail);
    const refreshToken = createSecrets({ key: null, dataDir: hh.config.dataDir }).decrypt(
      oauth.accountRows(hh)[0]!.secret_enc!,
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

    // Each failure is a mailbox.server.* text (the card's last error in the reader's
    // language), its English word for word the sentence it always was.
    const failureOf = async (
      t: ReturnType<typeof createAccessTokens>,
      a: { secretEnc: string | null } = acct,
    ) => {
      try {
        await t.get(1, a);
      } catch (err) {
        return { message: (err as ImapError).message, text: (err as ImapError).text };
      }
      throw new Error("no failure");
    };
    const tokensAnswering = (status: number, body: unknown) =>
      createAccessTokens({ google: createGoogleClient(cfg, answer(status, body)), secrets, log });
    expect(
      await failureOf(
        tokensAnswering(400, {
          error: "invalid_grant",
          error_description: "Token has been expired or revoked.",
        }),
      ),
    ).toEqual({
      message:
        "Google refused the saved authorization (invalid_grant): Google's token endpoint answered 400 invalid_grant: Token has been expired or revoked.",
      text: {
        code: "mailbox.server.googleRefused",
        values: {
          reason: [
            {
              code: "mailbox.server.googleAnswered",
              values: {
                what: "token",
                status: 400,
                hasCode: "yes",
                code: "invalid_grant",
                hasDescription: "yes",
                description: "Token has been expired or revoked.",
              },
            },
          ],
        },
      },
    });
    expect(await failureOf(tokensAnswering(503, "not json"))).toMatchObject({
      message: "Google's token endpoint answered 503",
      text: { code: "mailbox.server.googleAnswered", values: { hasCode: "no" } },
    });
    expect(await failureOf(tokensAnswering(200, { token_type: "Bearer" }))).toEqual({
      message: "Google's token answer has no access token",
      text: { code: "mailbox.server.googleNoAccessToken", values: { what: "token" } },
    });
    expect(await failureOf(unconfigured)).toEqual({
      message:
        "Gmail OAuth is not configured on this server: the administrator must set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and PUBLIC_URL",
      text: { code: "mailbox.server.googleNotConfigured" },
    });
    expect(await failureOf(tokens, { secretEnc: null })).toEqual({
      message: "No refresh token is stored",
      text: { code: "mailbox.server.noRefreshToken" },
    });
    const otherKey = createSecrets({ key: Buffer.alloc(32, 8), dataDir: "/nonexistent" });
    expect(await failureOf(tokens, { secretEnc: otherKey.encrypt(refreshToken) })).toEqual({
      message:
        "A stored secret cannot be decrypted (the secret key changed); reconnect the mailbox",
      text: { code: "mailbox.server.secretUnreadable" },
    });
    expect(GMAIL_SCOPE).toBe("https://mail.google.com/");
  }, 20_000);
});
