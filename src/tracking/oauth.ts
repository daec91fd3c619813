/**
 * OAuth 2.0 client-credentials tokens for one carrier (UPS, FedEx, USPS), cached in memory:
 * - one token request in flight at a time: callers that arrive meanwhile wait for the same one;
 * - renewed shortly before it expires (a minute, or half its life for short-lived tokens), by the
 *   injected clock;
 * - `authorized()` renews once when a call answers 401/403 with a cached token; a second refusal
 *   is "auth-failed";
 * - a token endpoint that refuses the client id/secret is remembered for REFUSAL_MS so a run over
 *   many orders does not ask again for each one (the credentials come from the environment and
 *   only change with a restart).
 * Tokens and secrets never appear in outcomes or logs.
 */

import { createTokenCache as createSharedTokenCache } from "../util/token-cache.ts";
import {
  type AdapterDeps,
  commonFailure,
  errorText,
  type Failure,
  fail,
  type HttpAnswer,
  isFailure,
  obj,
  parseJson,
  send,
  str,
} from "./http.ts";

export const RENEW_BEFORE_MS = 60_000;
export const REFUSAL_MS = 15 * 60_000;

export type TokenRequest = {
  url: string;
  init: RequestInit;
};

export type TokenCache = {
  /** A live token, or why there is none. */
  get(signal?: AbortSignal): Promise<{ token: string } | Failure>;
  /** Drops `token` if it is the cached one (the carrier refused it). */
  invalidate(token: string): void;
};

/**
 * The OAuth 2.0 client-credentials request with the credentials in a form body (RFC 6749 §2.3.1,
 * §4.4), as FedEx and USPS take it.
 */
export function formClientCredentials(
  url: string,
  creds: { clientId: string | null; clientSecret: string | null },
): TokenRequest {
  return {
    url,
    init: {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: creds.clientId ?? "",
        client_secret: creds.clientSecret ?? "",
      }).toString(),
    },
  };
}

export function createTokenCache(opts: {
  /** "UPS", "FedEx", "USPS": for messages. */
  name: string;
  /** Environment variable prefix ("UPS") for the message when credentials are refused. */
  envPrefix: string;
  request: () => TokenRequest;
  deps: AdapterDeps;
}): TokenCache {
  const { name, deps } = opts;
  const tokens = createSharedTokenCache<"token">({
    now: deps.now,
    renewBeforeMs: (lifeMs) => Math.min(RENEW_BEFORE_MS, lifeMs / 2),
  });
  let refused: { until: number; failure: Failure } | null = null;

  async function fetchToken(signal?: AbortSignal): Promise<{ token: string } | Failure> {
    const { url, init } = opts.request();
    const a = await send(deps, `${name} (token)`, url, init, signal);
    if (isFailure(a)) return a;
    const now = deps.now();
    if (a.status === 400 || a.status === 401 || a.status === 403) {
      const f = fail(
        "auth-failed",
        `${name} refused our client credentials (HTTP ${a.status}${errorText(parseJson(a.text)) ? `: ${errorText(parseJson(a.text))}` : ""}); check ${opts.envPrefix}_CLIENT_ID and ${opts.envPrefix}_CLIENT_SECRET`,
      );
      refused = { until: now + REFUSAL_MS, failure: f };
      return f;
    }
    const common = commonFailure(`${name} (token)`, a, now);
    if (common) return common;
    if (a.status !== 200)
      return fail("unreadable", `${name} token endpoint answered HTTP ${a.status}`);
    const body = obj(parseJson(a.text));
    const token = str(body?.access_token);
    const expiresIn = Number(body?.expires_in);
    if (!token || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      return fail("unreadable", `${name} sent a token answer we could not read`);
    }
    tokens.put("token", token, expiresIn * 1000);
    return { token };
  }

  return {
    async get(signal) {
      const now = deps.now();
      if (refused && now < refused.until) return refused.failure;
      refused = null;
      const token = tokens.get("token");
      if (token) return { token };
      return tokens.once("token", () => fetchToken(signal));
    },
    invalidate(token) {
      tokens.drop("token", token);
    },
  };
}

/**
 * Runs `call` with a token; on 401/403 drops the token and tries once more with a fresh one. A
 * second refusal is "auth-failed". Other answers are returned as they are.
 */
export async function authorized(
  name: string,
  envPrefix: string,
  cache: TokenCache,
  call: (token: string) => Promise<HttpAnswer | Failure>,
  signal?: AbortSignal,
): Promise<HttpAnswer | Failure> {
  for (let attempt = 0; ; attempt++) {
    const t = await cache.get(signal);
    if (isFailure(t)) return t;
    const a = await call(t.token);
    if (isFailure(a)) return a;
    if (a.status !== 401 && a.status !== 403) return a;
    cache.invalidate(t.token);
    if (attempt >= 1) {
      return fail(
        "auth-failed",
        `${name} refused our access token twice (HTTP ${a.status}); check ${envPrefix}_CLIENT_ID / ${envPrefix}_CLIENT_SECRET and that the app has access to the tracking API`,
      );
    }
  }
}
