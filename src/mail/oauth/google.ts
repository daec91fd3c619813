/**
 * Gmail with Google OAuth (docs/behaviour.md#states-and-transitions, docs/behaviour.md#mail).
 *
 * Google's side of Gmail OAuth, no database (the connect flow with its stored states is the
 * feature's: src/features/mailbox/gmail-oauth.service.ts). Two layers, each usable alone:
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
 * Never logged: codes, states, verifiers, access, refresh or ID tokens, the client secret.
 */
import crypto from "node:crypto";
import type { TextPart, TextValue } from "../../contract/text.ts";
import { english, text } from "../../i18n/text.ts";
import type { Logger } from "../../log.ts";
import { SecretError, type Secrets } from "../../util/secrets.ts";
import { createTokenCache } from "../../util/token-cache.ts";
import { ImapError, imapError, secretImapError } from "../imap/client.ts";

export const GMAIL_SCOPE = "https://mail.google.com/";
export const OAUTH_SCOPES = [GMAIL_SCOPE, "openid", "email"] as const;
/** The path of the callback under PUBLIC_URL (the authorised redirect URI in Google Cloud). */
export const CALLBACK_PATH = "/api/auth/google/callback";
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

/**
 * `text` is the failure as a `mailbox.server.google*` id and values (docs/i18n.md "Server
 * texts"), its message the same in English; Google's own words are values, as they came.
 */
export class GoogleOAuthError extends Error {
  readonly text: TextPart;
  constructor(
    readonly kind: GoogleErrorKind,
    t: TextPart,
    /** Google's `error` code when it sent one (invalid_grant, invalid_client...). */
    readonly code: string | null = null,
  ) {
    super(english(t));
    this.text = t;
  }
}

const googleText = (id: string, values?: Record<string, TextValue>) =>
  text(`mailbox.server.${id}`, values);

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
      throw new GoogleOAuthError(
        "retryable",
        name === "TimeoutError"
          ? googleText("googleNoAnswer", { what, seconds: timeoutMs / 1000 })
          : googleText("googleUnreachable", { what, reason: String(err) }),
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
    // Google's code and description are its own words: values, as they came.
    const text = googleText("googleAnswered", {
      what,
      status: res.status,
      hasCode: code ? "yes" : "no",
      code: code ?? "",
      hasDescription: description ? "yes" : "no",
      description,
    });
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
      throw new GoogleOAuthError("retryable", googleText("googleNotJson", { what }));
    }
    const accessToken = body.access_token;
    const type = body.token_type;
    if (typeof accessToken !== "string" || accessToken === "") {
      throw new GoogleOAuthError("other", googleText("googleNoAccessToken", { what }));
    }
    if (typeof type === "string" && type.toLowerCase() !== "bearer") {
      throw new GoogleOAuthError("other", googleText("googleTokenType", { what, type }));
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
        throw new GoogleOAuthError("retryable", googleText("googleNotJson", { what: "userinfo" }));
      }
      if (typeof body.email !== "string" || body.email.trim() === "") {
        throw new GoogleOAuthError("other", googleText("googleNoEmail"));
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

export function createAccessTokens(deps: {
  /** Null when OAuth is not configured on this server. */
  google: GoogleClient | null;
  secrets: Pick<Secrets, "decrypt">;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? (() => Date.now());
  const cache = createTokenCache<number>({ now, renewBeforeMs: () => ACCESS_TOKEN_MARGIN_MS });

  function remember(userId: number, refreshToken: string, t: GoogleTokens) {
    // The entry only serves the refresh token it came from (a reconnect replaces it).
    cache.put(userId, t.accessToken, t.expiresIn * 1000, sha256(refreshToken));
  }

  async function refresh(userId: number, refreshToken: string): Promise<string> {
    const google = deps.google;
    if (!google) {
      throw imapError("other", "googleNotConfigured");
    }
    try {
      const t = await google.refresh(refreshToken);
      remember(userId, refreshToken, t);
      deps.log.debug({ userid: userId, expiresIn: t.expiresIn }, "Gmail access token refreshed");
      return t.accessToken;
    } catch (err) {
      if (!(err instanceof GoogleOAuthError)) throw err;
      cache.drop(userId);
      deps.log.warn({ userid: userId, err: err.message }, "Gmail access token refresh failed");
      if (err.kind === "invalid_grant") {
        // Revoked, expired (a consent screen in "Testing" gives 7 days), or the password changed.
        throw imapError("auth", "googleRefused", { reason: [err.text] });
      }
      throw new ImapError(err.kind === "retryable" ? "network" : "other", err.message, undefined, {
        text: err.text,
      });
    }
  }

  return {
    /**
     * The access token for the user's OAuth mailbox (MailboxServiceDeps.oauthAccessToken): the
     * cached one while it has more than 60 s left, else a new one from Google.
     */
    async get(userId: number, account: { secretEnc: string | null }): Promise<string> {
      if (!account.secretEnc) throw imapError("auth", "noRefreshToken");
      let refreshToken: string;
      try {
        refreshToken = deps.secrets.decrypt(account.secretEnc);
      } catch (err) {
        if (err instanceof SecretError) throw secretImapError(err);
        throw err;
      }
      const key = sha256(refreshToken);
      const hit = cache.get(userId, key);
      if (hit) return hit;
      // One refresh at a time per refresh token (the supervisor, a backfill and a folder refresh
      // may connect at once).
      return cache.once(`${userId}:${key}`, () => refresh(userId, refreshToken));
    },
    /** Keeps the access token of a fresh code exchange (the first connect needs no refresh). */
    remember,
    /** Forgets the user's cached access token (only `token`, when given: one Gmail refused). */
    forget(userId: number, token?: string) {
      cache.drop(userId, token);
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
