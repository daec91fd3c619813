import { Hono, type MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import {
  type GmailOAuth,
  STATE_COOKIE,
  STATE_TTL_MS,
} from "../../features/mailbox/gmail-oauth.service.ts";
import { CALLBACK_PATH } from "../../mail/oauth/google.ts";
import { AppError } from "../../util/errors.ts";
import type { AppEnv } from "../types.ts";

/**
 * Gmail with Google OAuth, mounted at /api/auth/google (docs/behaviour.md#states-and-transitions, docs/api.md).
 *
 * - `GET /api/auth/google` (signed in): `{authUrl}` for the popup; 503 with what the admin must set
 *   when OAuth is not configured. Also sets a short-lived HttpOnly cookie holding the state, so the
 *   callback only completes in the browser that started it.
 * - `GET /api/auth/google/callback` (public: Google's redirect carries no bearer token; the state
 *   names the user): always a 302 to `${PUBLIC_URL}/account?oauth=success|error`. The web app at
 *   that address (the popup) hands the result to the page that opened it and closes itself, so no
 *   HTML page of our own is needed here. The reason of a failure goes to the log only.
 */
export function oauthRoutes(deps: { oauth: GmailOAuth; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { oauth } = deps;
  return new Hono<AppEnv>()
    .get("/", deps.requireAuth, (c) => {
      c.header("Cache-Control", "no-store");
      if (!oauth.configured) throw new AppError(503, "gmail_oauth_not_configured");
      const { authUrl, state } = oauth.start(c.get("user").id);
      setCookie(c, STATE_COOKIE, state, {
        path: CALLBACK_PATH,
        httpOnly: true,
        sameSite: "Lax",
        secure: oauth.secureCookie,
        maxAge: Math.floor(STATE_TTL_MS / 1000),
      });
      return c.json({ authUrl });
    })
    .get("/callback", async (c) => {
      const result = await oauth.callback({
        code: c.req.query("code"),
        state: c.req.query("state"),
        error: c.req.query("error"),
        cookieState: getCookie(c, STATE_COOKIE),
      });
      if (!result.ok) {
        c.get("log").warn(
          { userid: result.userId, reason: result.reason },
          "Gmail OAuth callback failed",
        );
      }
      deleteCookie(c, STATE_COOKIE, { path: CALLBACK_PATH, secure: oauth.secureCookie });
      c.header("Cache-Control", "no-store");
      c.header("Referrer-Policy", "no-referrer");
      return c.redirect(oauth.resultUrl(result.ok), 302);
    });
}
