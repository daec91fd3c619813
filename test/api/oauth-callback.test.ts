/**
 * Connect Gmail with Google OAuth, the callback (test/support/google-oauth-suite.ts): authorize →
 * callback → token → OAUTHBEARER/XOAUTH2 login → IDLE → an appended Amazon mail becomes an order;
 * then the ways it fails: bad or reused state, another browser, PKCE mismatch, access denied, no
 * refresh token or mail scope.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import { STATE_COOKIE } from "../../src/features/mailbox/gmail-oauth.service.ts";
import { codeChallengeOf } from "../../src/mail/oauth/google.ts";
import { createSecrets } from "../../src/util/secrets.ts";
import { startDovecot } from "../support/dovecot.ts";
import { FAKE_CLIENT_SECRET } from "../support/fake-google.ts";
import {
  APPENDER,
  account,
  CALLBACK,
  googleOAuthSuite,
  PUBLIC_URL,
} from "../support/google-oauth-suite.ts";
import { waitFor } from "../support/wait.ts";
import { call } from "./helpers.ts";

const oauth = googleOAuthSuite();
const { google, suite, harness } = oauth;

describe("the callback", () => {
  test("full flow: consent → callback → OAUTHBEARER login at Dovecot → IDLE → an Amazon mail becomes an order", async () => {
    const hh = harness({ LOG_LEVEL: "info" });
    const gmail = APPENDER.user;
    const u = await hh.register();
    const events = hh.watchEvents(u.userid);
    const s = await oauth.startAuth(hh, u.token);
    const back = await oauth.consent(s.authUrl, gmail);
    const backUrl = new URL(back, PUBLIC_URL);
    const code = backUrl.searchParams.get("code")!;
    expect(backUrl.searchParams.get("state")).toBe(s.state);

    const r = await oauth.callback(hh, back, s.cookie);
    expect(r.location).toBe(`${PUBLIC_URL}/account?oauth=success`);
    // The state cookie is cleared; the state row is gone (single use).
    expect(r.setCookie).toContain(`${STATE_COOKIE}=;`);
    expect(oauth.stateRows(hh)).toHaveLength(0);

    // The code was exchanged once, with the PKCE verifier and our redirect URI.
    const exchange = oauth.tokenRequests("authorization_code");
    expect(exchange).toHaveLength(1);
    expect(exchange[0]!.status).toBe(200);
    expect(exchange[0]!.params).toMatchObject({ code, redirect_uri: CALLBACK });

    const settings = await oauth.settingsOf(hh, u.token);
    expect(settings).toMatchObject({
      provider: "gmail",
      isConnected: true,
      emailAddress: gmail,
      selectedFolder: "INBOX",
      accessToken: "present",
    });
    const [row] = oauth.accountRows(hh);
    expect(row).toMatchObject({ user_id: u.userid, auth_type: "oauth", email_address: gmail });
    expect(row!.secret_enc!.startsWith("v1:")).toBe(true);
    const issued = google.issued();
    const refreshToken = createSecrets({ key: null, dataDir: hh.config.dataDir }).decrypt(
      row!.secret_enc!,
    );
    expect(issued.refreshTokens).toContain(refreshToken);
    expect(events.some((e) => e.type === "mailbox.connected")).toBe(true);

    // IDLE over an OAuth login (imapflow prefers OAUTHBEARER when offered).
    await waitFor(
      async () => (await oauth.statusOf(hh, u.token)).body.status === "idle",
      "IDLE",
      8000,
    );
    expect(suite.dc.log()).toContain(`user=<${gmail}>, method=OAUTHBEARER`);
    // The first connects used the access token of the exchange: no refresh yet.
    expect(google.refreshCount()).toBe(0);

    const mail = oauth.vineMail();
    await suite.dc.append(gmail, mail.raw);
    const orders = await waitFor(
      () => {
        const list = oauth.ordersOf(hh, u.userid);
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
      await oauth.connectWithGoogle(hh, gmail);
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
    const u = await oauth.connectWithGoogle(hh, gmail);
    expect(google.requests.filter((r) => r.path === "/userinfo").length).toBe(before + 1);
    expect(await oauth.settingsOf(hh, u.token)).toMatchObject({
      isConnected: true,
      emailAddress: gmail,
    });
  }, 20_000);

  test("an unknown, missing or reused state → oauth=error and nothing saved", async () => {
    const hh = harness();
    const gmail = account();
    const u = await hh.register();
    const s = await oauth.startAuth(hh, u.token);
    const back = await oauth.consent(s.authUrl, gmail);
    const code = new URL(back, PUBLIC_URL).searchParams.get("code")!;

    const exchangesBefore = oauth.tokenRequests("authorization_code").length;
    for (const path of [
      `/api/auth/google/callback?code=${encodeURIComponent(code)}&state=not-a-state`,
      `/api/auth/google/callback?code=${encodeURIComponent(code)}`,
      "/api/auth/google/callback",
    ]) {
      const r = await oauth.callback(hh, path, s.cookie);
      expect([path, r.location]).toEqual([path, `${PUBLIC_URL}/account?oauth=error`]);
    }
    expect(oauth.tokenRequests("authorization_code").length).toBe(exchangesBefore);
    expect(oauth.accountRows(hh)).toHaveLength(0);
    // The real state is still usable once.
    expect((await oauth.callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=success`,
    );
    await waitFor(
      async () => (await oauth.statusOf(hh, u.token)).body.status === "idle",
      "IDLE",
      8000,
    );
    // ...and only once: a replay changes nothing and asks Google for nothing.
    const exchanges = oauth.tokenRequests("authorization_code").length;
    const saved = JSON.stringify(oauth.accountRows(hh));
    expect((await oauth.callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=error`,
    );
    expect(oauth.tokenRequests("authorization_code").length).toBe(exchanges);
    expect(JSON.stringify(oauth.accountRows(hh))).toBe(saved);
  }, 20_000);

  test("an expired state (over 10 minutes) → oauth=error", async () => {
    const hh = harness();
    const u = await hh.register();
    const s = await oauth.startAuth(hh, u.token);
    const back = await oauth.consent(s.authUrl, account());
    hh.db.$client
      .query("UPDATE oauth_states SET created_at = ?")
      .run(new Date(Date.now() - 11 * 60_000).toISOString());
    expect((await oauth.callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=error`,
    );
    expect(oauth.accountRows(hh)).toHaveLength(0);
    expect(oauth.stateRows(hh)).toHaveLength(0);
  }, 15_000);

  test("user A's state never attaches a mailbox to user B, and needs A's browser", async () => {
    const hh = harness();
    const a = await hh.register();
    const b = await hh.register();
    const gmail = account();

    // B (another browser, without A's state cookie) brings A's callback: refused, state burnt.
    const s1 = await oauth.startAuth(hh, a.token);
    const back1 = await oauth.consent(s1.authUrl, gmail);
    const bCookie = (await oauth.startAuth(hh, b.token)).cookie;
    for (const cookie of [undefined, bCookie]) {
      const res = await hh.req("GET", back1, {
        token: b.token,
        headers: cookie ? { cookie } : {},
      });
      expect(res.headers.get("location")).toBe(`${PUBLIC_URL}/account?oauth=error`);
    }
    expect(oauth.accountRows(hh)).toHaveLength(0);
    expect((await oauth.callback(hh, back1, s1.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=error`,
    );

    // A's own browser completes it, even while carrying B's bearer token: the state decides.
    const s2 = await oauth.startAuth(hh, a.token);
    const back2 = await oauth.consent(s2.authUrl, gmail);
    const res = await hh.req("GET", back2, { token: b.token, headers: { cookie: s2.cookie } });
    expect(res.headers.get("location")).toBe(`${PUBLIC_URL}/account?oauth=success`);
    expect(oauth.accountRows(hh).map((r) => r.user_id)).toEqual([a.userid]);
    expect(await oauth.settingsOf(hh, b.token)).toBeNull();
    expect(await oauth.settingsOf(hh, a.token)).toMatchObject({
      isConnected: true,
      emailAddress: gmail,
    });
  }, 20_000);

  test("a PKCE mismatch is refused by Google → oauth=error", async () => {
    const hh = harness();
    const u = await hh.register();
    const s = await oauth.startAuth(hh, u.token);
    // Someone swaps the challenge on the way to Google: our verifier no longer matches.
    const tampered = new URL(s.authUrl);
    tampered.searchParams.set("code_challenge", codeChallengeOf("x".repeat(43)));
    const back = await oauth.consent(tampered.toString(), account());
    expect((await oauth.callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=error`,
    );
    const last = oauth.tokenRequests("authorization_code").at(-1)!;
    expect(last.status).toBe(400);
    expect(oauth.accountRows(hh)).toHaveLength(0);
    expect(await oauth.settingsOf(hh, u.token)).toBeNull();
  }, 15_000);

  test("access denied at Google → oauth=error, nothing saved, state used up", async () => {
    const hh = harness();
    const u = await hh.register();
    const s = await oauth.startAuth(hh, u.token);
    google.deny = true;
    const back = await oauth.consent(s.authUrl, account());
    expect(new URL(back, PUBLIC_URL).searchParams.get("error")).toBe("access_denied");
    const before = oauth.tokenRequests("authorization_code").length;
    expect((await oauth.callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=error`,
    );
    expect(oauth.tokenRequests("authorization_code").length).toBe(before);
    expect(oauth.accountRows(hh)).toHaveLength(0);
    expect(oauth.stateRows(hh)).toHaveLength(0);
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
      const s = await oauth.startAuth(hh, u.token);
      const back = await oauth.consent(s.authUrl, account());
      expect((await oauth.callback(hh, back, s.cookie)).location).toBe(
        `${PUBLIC_URL}/account?oauth=error`,
      );
      google.omitRefreshToken = false;
      google.grantScope = null;
    }
    expect(oauth.accountRows(hh)).toHaveLength(0);
  }, 15_000);

  test("an address Gmail's IMAP refuses is not saved (the login proves it first)", async () => {
    const hh = harness();
    const u = await hh.register();
    const s = await oauth.startAuth(hh, u.token);
    // Google hands out tokens, but the IMAP server does not accept them (introspection says no).
    const back = await oauth.consent(s.authUrl, account());
    google.expiresIn = 0;
    expect((await oauth.callback(hh, back, s.cookie)).location).toBe(
      `${PUBLIC_URL}/account?oauth=error`,
    );
    expect(oauth.accountRows(hh)).toHaveLength(0);
    expect(hh.services.mailbox.manager.size()).toBe(0);
  }, 15_000);
});
