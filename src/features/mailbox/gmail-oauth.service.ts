/**
 * Connecting Gmail with Google OAuth: the flow behind GET /api/auth/google and its callback
 * (Google's endpoints and the access tokens are src/mail/oauth/google.ts).
 *
 * The state (32 random bytes, base64url) and the PKCE verifier live in oauth_states
 * (oauth-states.repo.ts) for 10 minutes and are used once. The state is also bound to the browser
 * that asked for it (an HttpOnly cookie, checked by the callback), so a link to someone else's
 * authorization cannot attach a victim's Gmail to the attacker's Grapevine account. The callback
 * exchanges the code, requires a refresh token and the mail scope, takes the address from the ID
 * token (or userinfo), proves it with a real OAUTHBEARER/XOAUTH2 IMAP login, and only then stores
 * the refresh token (encrypted) through the mailbox service, which starts watching.
 *
 * Never logged: codes, states, verifiers, access, refresh or ID tokens, the client secret.
 */
import crypto from "node:crypto";
import type { MailFolder } from "../../contract/index.ts";
import type { Logger } from "../../log.ts";
import {
  classifyImapError,
  closeImap,
  connectImap,
  type ImapEndpoint,
  listFolders,
} from "../../mail/imap/client.ts";
import {
  type AccessTokens,
  emailFromIdToken,
  GMAIL_SCOPE,
  type GoogleClient,
  GoogleOAuthError,
  type GoogleTokens,
  NOT_CONFIGURED,
  pkcePair,
  randomState,
} from "../../mail/oauth/google.ts";
import type { MailboxService } from "./mailbox.service.ts";
import type { OAuthStatesRepo } from "./oauth-states.repo.ts";

/** A state is good for this long after GET /api/auth/google. */
export const STATE_TTL_MS = 10 * 60_000;
/** At most this many open authorizations per user (older ones are dropped). */
const MAX_STATES_PER_USER = 5;

/** Constant-time string equality (for the state cookie). */
function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

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
  states: OAuthStatesRepo;
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
  const { states, log } = deps;
  const now = deps.now ?? (() => new Date());
  if (deps.google && deps.publicUrl && !redirectAcceptedByGoogle(deps.publicUrl)) {
    log.warn(
      { redirectUri: deps.google.redirectUri },
      "PUBLIC_URL is plain http on an address other than localhost/127.0.0.1: Google refuses such redirect URIs. Use https with a domain, or http://localhost through an SSH tunnel (README: Connect Gmail with Google OAuth)",
    );
  }

  const cutoff = () => new Date(now().getTime() - STATE_TTL_MS).toISOString();

  /** The state row, deleted as it is read (single use); null when unknown or too old. */
  function takeState(state: string): { userId: number; codeVerifier: string } | null {
    const row = states.take(state);
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
      states.add(
        { state, userId, codeVerifier: verifier, createdAt: now().toISOString() },
        { olderThan: cutoff(), keepPerUser: MAX_STATES_PER_USER },
      );
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
        states.dropOlderThan(cutoff());
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
