/**
 * The Gmail OAuth test files' one setup: a local fake of Google's endpoints
 * (test/support/fake-google.ts) and a real Dovecot whose oauth2 passdb asks the fake's
 * introspection endpoint (`dovecotSuite`), plus the browser's steps (start, consent at Google,
 * callback) and what the tests read back. `googleOAuthSuite()` registers the file's hooks; the
 * fake's switches are reset after each test.
 */
import { afterAll, afterEach, expect } from "bun:test";
import type { MailboxStatus, Notification, Order, UserData } from "../../src/contract/index.ts";
import { STATE_COOKIE } from "../../src/features/mailbox/gmail-oauth.service.ts";
import { call } from "../api/helpers.ts";
import { amazonMail } from "../api/mail-messages.ts";
import type { Dovecot } from "./dovecot.ts";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, startFakeGoogle } from "./fake-google.ts";
import { dovecotSuite, type ImapHarness } from "./imap-suite.ts";
import { waitFor } from "./wait.ts";

export const PUBLIC_URL = "http://localhost:3000";
export const CALLBACK = `${PUBLIC_URL}/api/auth/google/callback`;
export const EXPIRED =
  "Gmail refused the saved credentials. Connect your Gmail account again in Account Settings.";

/**
 * Google accounts: each test signs in as its own (any address logs in with a token; the static
 * userdb gives it a maildir). `APPENDER` also has a password, to append mail.
 */
export const APPENDER = { user: "gus@gmail.test", pass: "pw-gus" };
let nextAccount = 0;
export const account = () => `g${++nextAccount}-${Date.now()}@gmail.test`;

export function googleOAuthSuite() {
  const google = startFakeGoogle();
  const suite = dovecotSuite(
    { users: [APPENDER], oauth2: { introspectionUrl: google.introspectUrl } },
    20_000,
  );
  afterAll(() => {
    google.stop();
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
  });

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
    return {
      location: res.headers.get("location"),
      setCookie: res.headers.get("set-cookie") ?? "",
    };
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

  return {
    google,
    suite,
    harness,
    startAuth,
    consent,
    callback,
    connectWithGoogle,
    statusOf,
    settingsOf,
    accountRows,
    stateRows,
    criticals,
    ordersOf,
    tokenRequests,
    vineMail,
    reconnect,
  };
}
