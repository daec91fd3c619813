/**
 * A small stand-in for Google's OAuth endpoints on 127.0.0.1 (Bun.serve, free port), for the
 * Gmail OAuth tests together with the test Dovecot's oauth2 passdb (test/support/dovecot.ts):
 *
 * - `GET /auth`: the consent screen. Checks the request like Google does (client, redirect URI,
 *   response_type=code, S256 challenge, scope) and redirects back to redirect_uri with
 *   `code` and `state` (or `error=access_denied` when `deny` is set). The account that "signs in"
 *   is `account` (settable).
 * - `POST /token`: `authorization_code` (client secret, single-use code, same redirect URI, PKCE
 *   verification) and `refresh_token`, answering Google's shapes: `{access_token, expires_in,
 *   refresh_token?, scope, token_type: "Bearer", id_token?}` or `{error, error_description}`.
 *   `refreshFailure` makes the refresh grant answer invalid_grant (400) or a 500.
 * - `GET /userinfo`: `{sub, email, email_verified}` for a live access token.
 * - `POST /introspect` (Dovecot's oauth2 passdb, `introspection_mode = post`): `{"active":"true",
 *   "username":<email>}` for an access token it issued and that is still live, else
 *   `{"active":"false"}`.
 *
 *   const g = startFakeGoogle({ account: "gus@gmail.test" });
 *   ... GOOGLE_AUTH_URL: g.authUrl, GOOGLE_TOKEN_URL: g.tokenUrl, ...
 *   g.stop();
 */
import crypto from "node:crypto";

export const FAKE_CLIENT_ID = "fake-client-1.apps.googleusercontent.test";
export const FAKE_CLIENT_SECRET = "fake-secret-1";

type CodeGrant = {
  clientId: string;
  redirectUri: string;
  challenge: string;
  method: string;
  email: string;
  scope: string;
  used: boolean;
};
type AccessGrant = { email: string; expiresAt: number; revoked: boolean };
type RefreshGrant = { email: string; scope: string; revoked: boolean };

export type FakeGoogleRequest = {
  path: string;
  grantType?: string;
  status: number;
  /** The parameters of /auth, or the form of /token (secrets included: tests only). */
  params: Record<string, string>;
};

export type FakeGoogle = {
  url: string;
  authUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  introspectUrl: string;
  /** The Google account that consents at /auth. */
  account: string;
  /** /auth answers error=access_denied. */
  deny: boolean;
  /** The granted scope (default: what was asked for). */
  grantScope: string | null;
  /** Leave out refresh_token / id_token from the code exchange. */
  omitRefreshToken: boolean;
  omitIdToken: boolean;
  /** Lifetime of new access tokens, in seconds. */
  expiresIn: number;
  /** The refresh grant fails: invalid_grant (400) or a 500. */
  refreshFailure: "invalid_grant" | 500 | null;
  /** Every request, in order. */
  requests: FakeGoogleRequest[];
  /** How many refresh grants were answered with a token. */
  refreshCount: () => number;
  /** Successful XOAUTH2/OAUTHBEARER checks by Dovecot (introspection answered active). */
  introspections: () => { active: number; inactive: number };
  /** Every token it issued (for "never in the database or the log" checks). */
  issued: () => { codes: string[]; accessTokens: string[]; refreshTokens: string[] };
  /** Revokes every refresh and access token of the account (like removing app access). */
  revoke: (email: string) => void;
  /** Ends the account's access tokens only (Google ending them early); refreshing still works. */
  revokeAccess: (email: string) => void;
  /** Introspection calls every access token inactive (Gmail refusing even fresh tokens). */
  refuseAllAccess: boolean;
  stop: () => void;
};

const rand = (prefix: string) => `${prefix}${crypto.randomBytes(24).toString("base64url")}`;
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

export function startFakeGoogle(opts: { account?: string } = {}): FakeGoogle {
  const codes = new Map<string, CodeGrant>();
  const access = new Map<string, AccessGrant>();
  const refresh = new Map<string, RefreshGrant>();
  let refreshes = 0;
  const intro = { active: 0, inactive: 0 };

  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  const oauthError = (error: string, description: string, status = 400) =>
    json({ error, error_description: description }, status);

  function idToken(email: string) {
    const now = Math.floor(Date.now() / 1000);
    const header = b64url({ alg: "RS256", kid: "fake", typ: "JWT" });
    const claims = b64url({
      iss: "https://accounts.google.com",
      azp: FAKE_CLIENT_ID,
      aud: FAKE_CLIENT_ID,
      sub: crypto.createHash("sha256").update(email).digest("hex").slice(0, 21),
      email,
      email_verified: true,
      iat: now,
      exp: now + 3600,
    });
    return `${header}.${claims}.${crypto.randomBytes(32).toString("base64url")}`;
  }

  function issueAccess(email: string) {
    const token = rand("ya29.fake-");
    access.set(token, { email, expiresAt: Date.now() + fake.expiresIn * 1000, revoked: false });
    return token;
  }

  function live(token: string | null | undefined): AccessGrant | null {
    const a = token ? access.get(token) : undefined;
    return a && !a.revoked && a.expiresAt > Date.now() ? a : null;
  }

  async function readForm(req: Request): Promise<Record<string, string>> {
    const text = await req.text();
    return Object.fromEntries(new URLSearchParams(text));
  }

  function clientOk(form: Record<string, string>, req: Request): boolean {
    let id = form.client_id;
    let secret = form.client_secret;
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.get("authorization") ?? "");
    if (basic?.[1]) {
      const [u, p] = Buffer.from(basic[1], "base64").toString().split(":");
      id = decodeURIComponent(u ?? "");
      secret = decodeURIComponent(p ?? "");
    }
    return id === FAKE_CLIENT_ID && secret === FAKE_CLIENT_SECRET;
  }

  function authorize(u: URL): Response {
    const q = Object.fromEntries(u.searchParams);
    const redirect = q.redirect_uri ?? "";
    if (q.client_id !== FAKE_CLIENT_ID) {
      return new Response("Error 401: invalid_client (The OAuth client was not found.)", {
        status: 401,
      });
    }
    if (!/^https?:\/\//.test(redirect)) {
      return new Response("Error 400: redirect_uri_mismatch", { status: 400 });
    }
    const back = (params: Record<string, string | undefined>) => {
      const b = new URL(redirect);
      for (const [k, v] of Object.entries(params)) if (v !== undefined) b.searchParams.set(k, v);
      return Response.redirect(b.toString(), 302);
    };
    if (
      q.response_type !== "code" ||
      !q.code_challenge ||
      q.code_challenge_method !== "S256" ||
      !q.scope
    ) {
      return back({ error: "invalid_request", state: q.state });
    }
    if (fake.deny) return back({ error: "access_denied", state: q.state });
    const code = rand("4/0Afake-");
    const scope = fake.grantScope ?? q.scope;
    codes.set(code, {
      clientId: q.client_id,
      redirectUri: redirect,
      challenge: q.code_challenge,
      method: q.code_challenge_method,
      email: fake.account,
      scope,
      used: false,
    });
    // In Google's order.
    return back({ state: q.state, code, scope, authuser: "0", prompt: "consent" });
  }

  async function token(req: Request, form: Record<string, string>): Promise<Response> {
    if (!clientOk(form, req)) return oauthError("invalid_client", "Unauthorized", 401);
    if (form.grant_type === "authorization_code") {
      const grant = codes.get(form.code ?? "");
      if (!grant || grant.used) return oauthError("invalid_grant", "Bad Request");
      grant.used = true;
      if (grant.redirectUri !== form.redirect_uri) {
        return oauthError("redirect_uri_mismatch", "Bad Request");
      }
      const verifier = form.code_verifier ?? "";
      const challenge = crypto.createHash("sha256").update(verifier).digest("base64url");
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || challenge !== grant.challenge) {
        return oauthError("invalid_grant", "Invalid code verifier.");
      }
      const body: Record<string, unknown> = {
        access_token: issueAccess(grant.email),
        expires_in: fake.expiresIn,
        scope: grant.scope,
        token_type: "Bearer",
      };
      if (!fake.omitRefreshToken) {
        const rt = rand("1//0fake-");
        refresh.set(rt, { email: grant.email, scope: grant.scope, revoked: false });
        body.refresh_token = rt;
      }
      if (!fake.omitIdToken && grant.scope.split(" ").includes("openid")) {
        body.id_token = idToken(grant.email);
      }
      return json(body);
    }
    if (form.grant_type === "refresh_token") {
      if (fake.refreshFailure === 500) {
        return oauthError("internal_failure", "Backend Error", 500);
      }
      const grant = refresh.get(form.refresh_token ?? "");
      if (!grant || grant.revoked || fake.refreshFailure === "invalid_grant") {
        return oauthError("invalid_grant", "Token has been expired or revoked.");
      }
      refreshes++;
      return json({
        access_token: issueAccess(grant.email),
        expires_in: fake.expiresIn,
        scope: grant.scope,
        token_type: "Bearer",
      });
    }
    return oauthError("unsupported_grant_type", `Invalid grant_type: ${form.grant_type ?? ""}`);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      let params: Record<string, string> = Object.fromEntries(u.searchParams);
      let res: Response;
      let grantType: string | undefined;
      if (u.pathname === "/auth" && req.method === "GET") {
        res = authorize(u);
      } else if (u.pathname === "/token" && req.method === "POST") {
        params = await readForm(req);
        grantType = params.grant_type;
        res = await token(req, params);
      } else if (u.pathname === "/userinfo" && req.method === "GET") {
        const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
        const a = live(bearer);
        res = a
          ? json({
              sub: crypto.createHash("sha256").update(a.email).digest("hex").slice(0, 21),
              email: a.email,
              email_verified: true,
            })
          : json({ error: "invalid_request", error_description: "Invalid Credentials" }, 401);
      } else if (u.pathname === "/introspect" && req.method === "POST") {
        params = await readForm(req);
        const a = fake.refuseAllAccess ? null : live(params.token);
        if (a) intro.active++;
        else intro.inactive++;
        // Dovecot compares active_value as a string.
        res = a ? json({ active: "true", username: a.email }) : json({ active: "false" });
      } else {
        res = json({ error: "not_found" }, 404);
      }
      fake.requests.push({ path: u.pathname, grantType, status: res.status, params });
      return res;
    },
  });

  const url = `http://127.0.0.1:${server.port}`;
  const fake: FakeGoogle = {
    url,
    authUrl: `${url}/auth`,
    tokenUrl: `${url}/token`,
    userinfoUrl: `${url}/userinfo`,
    introspectUrl: `${url}/introspect`,
    account: opts.account ?? "gus@gmail.test",
    deny: false,
    grantScope: null,
    omitRefreshToken: false,
    omitIdToken: false,
    expiresIn: 3599,
    refreshFailure: null,
    requests: [],
    refreshCount: () => refreshes,
    introspections: () => ({ ...intro }),
    issued: () => ({
      codes: [...codes.keys()],
      accessTokens: [...access.keys()],
      refreshTokens: [...refresh.keys()],
    }),
    revoke(email) {
      for (const g of refresh.values()) if (g.email === email) g.revoked = true;
      for (const g of access.values()) if (g.email === email) g.revoked = true;
    },
    revokeAccess(email) {
      for (const g of access.values()) if (g.email === email) g.revoked = true;
    },
    refuseAllAccess: false,
    stop: () => server.stop(true),
  };
  return fake;
}
