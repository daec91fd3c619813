/**
 * Gmail with Google OAuth (spec §4, DESIGN.md §5).
 *
 * Three layers, each usable alone:
 *
 * 1. `createGoogleClient`: Google's OAuth 2.0 endpoints (all configurable, so the tests run the
 *    whole flow against a local fake): the authorization address (code flow, PKCE S256, state,
 *    offline access, consent), the code exchange, the refresh grant and the userinfo lookup.
 *    Failures are `GoogleOAuthError`s of kind `invalid_grant` (the refresh token is dead: revoked,
 *    expired after 7 days in "Testing", password changed), `retryable` (network, timeout, 429, 5xx)
 *    or `other` (a misconfigured client and the like).
 * 2. `createAccessTokens`: a fresh access token before every IMAP connect, from the stored
 *    (encrypted) refresh token, cached in memory until 60 s before it expires. `invalid_grant`
 *    becomes an `ImapError` of kind "auth", which every caller of the mailbox's connect path turns
 *    into the "Email Authorization Expired" state with one critical notification
 *    (mailbox.service `authFailed`, the same as `credentialsRefused`); retryable failures become
 *    "network" (the supervisor backs off and tries again), anything else "other".
 * 3. `createGmailOAuth`: the connect flow behind GET /api/auth/google and its callback. The state
 *    (32 random bytes, base64url) and the PKCE verifier live in oauth_states for 10 minutes and are
 *    used once. The state is also bound to the browser that asked for it (an HttpOnly cookie,
 *    checked by the callback), so a link to someone else's authorization cannot attach a victim's
 *    Gmail to the attacker's Grapevine account. The callback exchanges the code, requires a refresh
 *    token and the mail scope, takes the address from the ID token (or userinfo), proves it with a
 *    real OAUTHBEARER/XOAUTH2 IMAP login, and only then stores the refresh token (encrypted) through
 *    the mailbox service, which starts watching.
 *
 * Never logged: codes, states, verifiers, access, refresh or ID tokens, the client secret.
 */
import crypto from "node:crypto";
import { and, desc, eq, lt, notInArray } from "drizzle-orm";
import type { MailFolder } from "../../contract/index.ts";
import type { Db } from "../../db/client.ts";
import { type MailboxAccountRow, oauthStates } from "../../db/schema.ts";
import type { MailboxService } from "../../features/mailbox/mailbox.service.ts";
import { SecretError, type Secrets } from "../../lib/secrets.ts";
import type { Logger } from "../../log.ts";
import {
  classifyImapError,
  closeImap,
  connectImap,
  type ImapEndpoint,
  ImapError,
  listFolders,
} from "../imap/client.ts";

export const GMAIL_SCOPE = "https://mail.google.com/";
export const OAUTH_SCOPES = [GMAIL_SCOPE, "openid", "email"] as const;
/** The path of the callback under PUBLIC_URL (the authorised redirect URI in Google Cloud). */
export const CALLBACK_PATH = "/api/auth/google/callback";
/** A state is good for this long after GET /api/auth/google. */
export const STATE_TTL_MS = 10 * 60_000;
/** At most this many open authorizations per user (older ones are dropped). */
const MAX_STATES_PER_USER = 5;
/** An access token is used until this long before it expires. */
export const ACCESS_TOKEN_MARGIN_MS = 60_000;
const HTTP_TIMEOUT_MS = 15_000;

export const NOT_CONFIGURED =
  "Gmail OAuth is not configured on this server. The administrator must set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and PUBLIC_URL (see README: Connect Gmail with Google OAuth), or connect with a Gmail app password instead.";

// ---------------------------------------------------------------------------------------------
// Small helpers.

const base64url = (buf: Buffer) => buf.toString("base64url");

/** 32 random bytes, base64url (43 characters). */
export function randomState(): string {
  return base64url(crypto.randomBytes(32));
}

/** The S256 code challenge of a PKCE verifier (RFC 7636 §4.2). */
export function codeChallengeOf(verifier: string): string {
  return base64url(crypto.createHash("sha256").update(verifier, "ascii").digest());
}

/** A PKCE verifier (43 characters of the unreserved set) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(crypto.randomBytes(32));
  return { verifier, challenge: codeChallengeOf(verifier) };
}

/** Constant-time string equality (for the state cookie). */
function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("base64url");

// ---------------------------------------------------------------------------------------------
// 1. Google's endpoints.

export type GoogleOAuthConfig = {
  clientId: string;
  clientSecret: string;
  /** `${PUBLIC_URL}/api/auth/google/callback` */
  redirectUri: string;
  authUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
};

export type GoogleErrorKind = "invalid_grant" | "retryable" | "other";

export class GoogleOAuthError extends Error {
  constructor(
    readonly kind: GoogleErrorKind,
    message: string,
    /** Google's `error` code when it sent one (invalid_grant, invalid_client...). */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export type GoogleTokens = {
  accessToken: string;
  /** Seconds, as Google sends them. */
  expiresIn: number;
  refreshToken: string | null;
  scopes: string[];
  idToken: string | null;
};

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export function createGoogleClient(
  cfg: GoogleOAuthConfig,
  opts: { fetch?: Fetch; timeoutMs?: number } = {},
) {
  const doFetch: Fetch = opts.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? HTTP_TIMEOUT_MS;

  async function send(what: string, url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, {
        ...init,
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const name = (err as Error)?.name;
      const why = name === "TimeoutError" ? `no answer in ${timeoutMs / 1000} s` : String(err);
      throw new GoogleOAuthError(
        "retryable",
        `Google's ${what} endpoint cannot be reached: ${why}`,
      );
    }
  }

  /** An error answer as a GoogleOAuthError (Google's error code and description only). */
  async function failure(what: string, res: Response): Promise<GoogleOAuthError> {
    let code: string | null = null;
    let description = "";
    try {
      const body = (await res.json()) as { error?: unknown; error_description?: unknown };
      if (typeof body.error === "string") code = body.error.slice(0, 64);
      if (typeof body.error_description === "string") {
        description = body.error_description.slice(0, 200);
      }
    } catch {
      // not JSON
    }
    const text = `Google's ${what} endpoint answered ${res.status}${code ? ` ${code}` : ""}${description ? `: ${description}` : ""}`;
    if (res.status >= 500 || res.status === 429) {
      return new GoogleOAuthError("retryable", text, code);
    }
    if (code === "invalid_grant") return new GoogleOAuthError("invalid_grant", text, code);
    return new GoogleOAuthError("other", text, code);
  }

  async function tokenRequest(what: string, form: Record<string, string>): Promise<GoogleTokens> {
    const res = await send(what, cfg.tokenUrl, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({
        client_id: cfg.clientId,
        client_secret: cfg.clientSecret,
        ...form,
      }).toString(),
    });
    if (!res.ok) throw await failure(what, res);
    let body: Record<string, unknown>;
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      throw new GoogleOAuthError("retryable", `Google's ${what} endpoint did not answer JSON`);
    }
    const accessToken = body.access_token;
    const type = body.token_type;
    if (typeof accessToken !== "string" || accessToken === "") {
      throw new GoogleOAuthError("other", `Google's ${what} answer has no access token`);
    }
    if (typeof type === "string" && type.toLowerCase() !== "bearer") {
      throw new GoogleOAuthError("other", `Google's ${what} answer has token type "${type}"`);
    }
    const expiresIn = Number(body.expires_in);
    return {
      accessToken,
      expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600,
      refreshToken:
        typeof body.refresh_token === "string" && body.refresh_token !== ""
          ? body.refresh_token
          : null,
      scopes: typeof body.scope === "string" ? body.scope.split(/\s+/).filter(Boolean) : [],
      idToken: typeof body.id_token === "string" ? body.id_token : null,
    };
  }

  return {
    redirectUri: cfg.redirectUri,

    /** Where the browser goes to consent (response_type=code with PKCE S256 and the state). */
    authorizationUrl(p: { state: string; codeChallenge: string; loginHint?: string }): string {
      const u = new URL(cfg.authUrl);
      const q = u.searchParams;
      q.set("response_type", "code");
      q.set("client_id", cfg.clientId);
      q.set("redirect_uri", cfg.redirectUri);
      q.set("scope", OAUTH_SCOPES.join(" "));
      // A refresh token for use while the user is away, and on every consent (Google omits it on
      // a re-consent without prompt=consent).
      q.set("access_type", "offline");
      q.set("prompt", "consent");
      q.set("include_granted_scopes", "true");
      q.set("state", p.state);
      q.set("code_challenge", p.codeChallenge);
      q.set("code_challenge_method", "S256");
      if (p.loginHint) q.set("login_hint", p.loginHint);
      return u.toString();
    },

    /** The authorization code (with its PKCE verifier) for tokens. */
    exchangeCode: (code: string, codeVerifier: string) =>
      tokenRequest("token", {
        grant_type: "authorization_code",
        code,
        code_verifier: codeVerifier,
        redirect_uri: cfg.redirectUri,
      }),

    /** A new access token from the refresh token. */
    refresh: (refreshToken: string) =>
      tokenRequest("token", { grant_type: "refresh_token", refresh_token: refreshToken }),

    /** The account's address from the userinfo endpoint (OpenID Connect). */
    async userinfo(accessToken: string): Promise<{ email: string; emailVerified: boolean }> {
      const res = await send("userinfo", cfg.userinfoUrl, {
        method: "GET",
        headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      });
      if (!res.ok) throw await failure("userinfo", res);
      let body: { email?: unknown; email_verified?: unknown };
      try {
        body = (await res.json()) as typeof body;
      } catch {
        throw new GoogleOAuthError("retryable", "Google's userinfo endpoint did not answer JSON");
      }
      if (typeof body.email !== "string" || body.email.trim() === "") {
        throw new GoogleOAuthError(
          "other",
          "Google did not tell the account's address (the email scope is missing)",
        );
      }
      return {
        email: body.email.trim(),
        emailVerified: body.email_verified !== false && body.email_verified !== "false",
      };
    },
  };
}
export type GoogleClient = ReturnType<typeof createGoogleClient>;

/**
 * The address in an ID token received straight from Google's token endpoint over TLS (OpenID
 * Connect Core 3.1.3.7: its signature need not be checked then; the audience must be ours).
 * Null when the token is unreadable, for another client, or carries no address.
 */
export function emailFromIdToken(
  idToken: string,
  clientId: string,
): { email: string; emailVerified: boolean } | null {
  const part = idToken.split(".")[1];
  if (!part) return null;
  let claims: { aud?: unknown; email?: unknown; email_verified?: unknown };
  try {
    claims = JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as typeof claims;
  } catch {
    return null;
  }
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(clientId)) return null;
  if (typeof claims.email !== "string" || claims.email.trim() === "") return null;
  return {
    email: claims.email.trim(),
    emailVerified: claims.email_verified !== false && claims.email_verified !== "false",
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Access tokens for IMAP.

type CachedToken = { key: string; accessToken: string; expiresAt: number };

export function createAccessTokens(deps: {
  /** Null when OAuth is not configured on this server. */
  google: GoogleClient | null;
  secrets: Pick<Secrets, "decrypt">;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? (() => Date.now());
  const cache = new Map<number, CachedToken>();
  const inFlight = new Map<string, Promise<string>>();

  function remember(userId: number, refreshToken: string, t: GoogleTokens) {
    cache.set(userId, {
      // The entry only serves the refresh token it came from (a reconnect replaces it).
      key: sha256(refreshToken),
      accessToken: t.accessToken,
      expiresAt: now() + t.expiresIn * 1000,
    });
  }

  async function refresh(userId: number, refreshToken: string): Promise<string> {
    const google = deps.google;
    if (!google) {
      throw new ImapError(
        "other",
        "Gmail OAuth is not configured on this server: the administrator must set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and PUBLIC_URL",
      );
    }
    try {
      const t = await google.refresh(refreshToken);
      remember(userId, refreshToken, t);
      deps.log.debug({ userid: userId, expiresIn: t.expiresIn }, "Gmail access token refreshed");
      return t.accessToken;
    } catch (err) {
      if (!(err instanceof GoogleOAuthError)) throw err;
      cache.delete(userId);
      deps.log.warn({ userid: userId, err: err.message }, "Gmail access token refresh failed");
      if (err.kind === "invalid_grant") {
        // Revoked, expired (a consent screen in "Testing" gives 7 days), or the password changed.
        throw new ImapError(
          "auth",
          `Google refused the saved authorization (invalid_grant): ${err.message}`,
        );
      }
      throw new ImapError(err.kind === "retryable" ? "network" : "other", err.message);
    }
  }

  return {
    /**
     * The access token for the user's OAuth mailbox (MailboxServiceDeps.oauthAccessToken): the
     * cached one while it has more than 60 s left, else a new one from Google.
     */
    async get(userId: number, account: Pick<MailboxAccountRow, "secretEnc">): Promise<string> {
      if (!account.secretEnc) throw new ImapError("auth", "No refresh token is stored");
      let refreshToken: string;
      try {
        refreshToken = deps.secrets.decrypt(account.secretEnc);
      } catch (err) {
        if (err instanceof SecretError) throw new ImapError("other", err.message, err);
        throw err;
      }
      const key = sha256(refreshToken);
      const hit = cache.get(userId);
      if (hit && hit.key === key && hit.expiresAt - ACCESS_TOKEN_MARGIN_MS > now()) {
        return hit.accessToken;
      }
      // One refresh at a time per refresh token (the supervisor, a backfill and a folder refresh
      // may connect at once).
      const flightKey = `${userId}:${key}`;
      let p = inFlight.get(flightKey);
      if (!p) {
        p = refresh(userId, refreshToken).finally(() => inFlight.delete(flightKey));
        inFlight.set(flightKey, p);
      }
      return p;
    },
    /** Keeps the access token of a fresh code exchange (the first connect needs no refresh). */
    remember,
    forget(userId: number) {
      cache.delete(userId);
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;

// ---------------------------------------------------------------------------------------------
// 3. The connect flow.

/**
 * Whether Google accepts `${publicUrl}/api/auth/google/callback` as a redirect URI for a web
 * client: https (Google also wants a public top-level domain, which cannot be checked here), or
 * http on localhost / 127.0.0.1 / [::1]. A LAN address such as http://192.168.1.10:3000 is refused.
 */
export function redirectAcceptedByGoogle(publicUrl: string): boolean {
  const u = new URL(publicUrl);
  if (u.protocol === "https:") return true;
  return ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
}

/** The cookie that binds a state to the browser that asked for it. */
export const STATE_COOKIE = "grapevine_oauth_state";

export type CallbackQuery = {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
  /** The state cookie the browser sent, if any. */
  cookieState?: string | undefined;
};

export type CallbackResult =
  | { ok: true; userId: number; email: string }
  | { ok: false; userId: number | null; reason: string };

export function createGmailOAuth(deps: {
  db: Db;
  /** Null when GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET or PUBLIC_URL is missing. */
  google: GoogleClient | null;
  clientId: string | null;
  publicUrl: string | null;
  accessTokens: AccessTokens;
  mailbox: Pick<MailboxService, "saveConnection">;
  /** Gmail's IMAP endpoint (config GMAIL_IMAP_*): the login that proves the address. */
  endpoint: ImapEndpoint;
  log: Logger;
  now?: () => Date;
}) {
  const { db, log } = deps;
  const now = deps.now ?? (() => new Date());
  if (deps.google && deps.publicUrl && !redirectAcceptedByGoogle(deps.publicUrl)) {
    log.warn(
      { redirectUri: deps.google.redirectUri },
      "PUBLIC_URL is plain http on an address other than localhost/127.0.0.1: Google refuses such redirect URIs. Use https with a domain, or http://localhost through an SSH tunnel (README: Connect Gmail with Google OAuth)",
    );
  }

  function dropExpiredStates() {
    const cutoff = new Date(now().getTime() - STATE_TTL_MS).toISOString();
    db.delete(oauthStates).where(lt(oauthStates.createdAt, cutoff)).run();
  }

  /** The state row, deleted as it is read (single use); null when unknown or too old. */
  function takeState(state: string): { userId: number; codeVerifier: string } | null {
    const row = db.delete(oauthStates).where(eq(oauthStates.state, state)).returning().get();
    if (!row) return null;
    const age = now().getTime() - Date.parse(row.createdAt);
    if (!(age >= -60_000 && age <= STATE_TTL_MS)) return null;
    return { userId: row.userId, codeVerifier: row.codeVerifier };
  }

  async function proveAndSave(
    userId: number,
    refreshToken: string,
    t: GoogleTokens,
    email: string,
  ) {
    let client: Awaited<ReturnType<typeof connectImap>>;
    try {
      client = await connectImap({
        endpoint: deps.endpoint,
        auth: { user: email, accessToken: t.accessToken },
        log: log.child({ userid: userId }),
        id: `u${userId}-oauth-verify`,
      });
    } catch (err) {
      const e = classifyImapError(err);
      throw new Error(
        e.kind === "auth"
          ? `Gmail refused the OAuth login for ${email}: ${e.message}`
          : `Could not reach Gmail at ${deps.endpoint.host}:${deps.endpoint.port}: ${e.message}`,
      );
    }
    let folders: MailFolder[] | null = null;
    try {
      folders = await listFolders(client);
    } catch (err) {
      log.warn(
        { userid: userId, err: (err as Error).message },
        "listing folders after login failed",
      );
    } finally {
      await closeImap(client);
    }
    // The supervisor's first connect reuses this access token.
    deps.accessTokens.remember(userId, refreshToken, t);
    await deps.mailbox.saveConnection(userId, {
      authType: "oauth",
      emailAddress: email,
      secret: refreshToken,
      folders,
    });
  }

  return {
    /** True when GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and PUBLIC_URL are all set. */
    configured: deps.google !== null,

    /** Where the browser is sent back to after the callback. */
    resultUrl(ok: boolean): string {
      return `${deps.publicUrl ?? ""}/account?oauth=${ok ? "success" : "error"}`;
    },

    /** Whether the state cookie must be Secure (PUBLIC_URL is https). */
    secureCookie: deps.publicUrl?.startsWith("https:") ?? false,

    /** GET /api/auth/google: a new state + PKCE verifier for the user, and Google's address. */
    start(userId: number): { authUrl: string; state: string } {
      const google = deps.google;
      if (!google) throw new Error(NOT_CONFIGURED);
      const state = randomState();
      const { verifier, challenge } = pkcePair();
      db.transaction((tx) => {
        const cutoff = new Date(now().getTime() - STATE_TTL_MS).toISOString();
        tx.delete(oauthStates).where(lt(oauthStates.createdAt, cutoff)).run();
        tx.insert(oauthStates)
          .values({ state, userId, codeVerifier: verifier, createdAt: now().toISOString() })
          .run();
        // A user opening the dialog again and again keeps only the newest few.
        const keep = tx
          .select({ state: oauthStates.state })
          .from(oauthStates)
          .where(eq(oauthStates.userId, userId))
          .orderBy(desc(oauthStates.createdAt))
          .limit(MAX_STATES_PER_USER)
          .all()
          .map((r) => r.state);
        tx.delete(oauthStates)
          .where(and(eq(oauthStates.userId, userId), notInArray(oauthStates.state, keep)))
          .run();
      });
      log.info({ userid: userId }, "Gmail OAuth: authorization started");
      return { authUrl: google.authorizationUrl({ state, codeChallenge: challenge }), state };
    },

    /**
     * GET /api/auth/google/callback. Never throws: every failure is a result with the reason (for
     * the log; it names no token, code or state).
     */
    async callback(q: CallbackQuery): Promise<CallbackResult> {
      const state = q.state?.trim() ?? "";
      if (state === "" || state.length > 200) {
        return { ok: false, userId: null, reason: "the callback carries no state" };
      }
      let found: { userId: number; codeVerifier: string } | null;
      try {
        dropExpiredStates();
        found = takeState(state);
      } catch (err) {
        return { ok: false, userId: null, reason: `the state lookup failed: ${String(err)}` };
      }
      if (!found) {
        return {
          ok: false,
          userId: null,
          reason: "unknown, used or expired state (authorizations last 10 minutes and work once)",
        };
      }
      const { userId, codeVerifier } = found;
      const fail = (reason: string): CallbackResult => ({ ok: false, userId, reason });
      if (!q.cookieState || !sameString(q.cookieState, state)) {
        return fail(
          "the browser that came back from Google is not the one that started the authorization (open Grapevine at PUBLIC_URL and connect again)",
        );
      }
      if (q.error) {
        const code = q.error.replace(/[^\w.-]/g, "").slice(0, 64);
        return fail(
          code === "access_denied"
            ? "the user did not allow access at Google (access_denied)"
            : `Google answered with error ${code}`,
        );
      }
      const code = q.code ?? "";
      if (code === "" || code.length > 2048) return fail("the callback carries no code");
      const google = deps.google;
      if (!google) return fail("Gmail OAuth is not configured on this server");
      try {
        const t = await google.exchangeCode(code, codeVerifier);
        if (!t.scopes.includes(GMAIL_SCOPE)) {
          return fail(
            `the Gmail permission (${GMAIL_SCOPE}) was not granted; allow "Read, compose, send and permanently delete all your email from Gmail" on Google's consent screen`,
          );
        }
        if (!t.refreshToken) {
          return fail(
            "Google sent no refresh token (remove Grapevine's access at myaccount.google.com/permissions and connect again)",
          );
        }
        const who =
          (t.idToken && deps.clientId ? emailFromIdToken(t.idToken, deps.clientId) : null) ??
          (await google.userinfo(t.accessToken));
        const email = who.email.toLowerCase();
        if (!who.emailVerified) return fail(`Google reports ${email} as not verified`);
        await proveAndSave(userId, t.refreshToken, t, email);
        log.info({ userid: userId, email }, "Gmail connected with OAuth");
        return { ok: true, userId, email };
      } catch (err) {
        const reason =
          err instanceof GoogleOAuthError || err instanceof Error ? err.message : String(err);
        return fail(reason);
      }
    },
  };
}
export type GmailOAuth = ReturnType<typeof createGmailOAuth>;
