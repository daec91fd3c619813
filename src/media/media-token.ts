/**
 * Media read tokens: how <img> and <video> authenticate (they cannot send an Authorization
 * header). A signed-in client asks GET /api/media/token for one and appends it as ?token= to media
 * URLs. Unlike the session token, it only reads that user's media and lives 1-2 hours, so an image
 * address that is copied, or logged by a reverse proxy, exposes little. It is an HMAC over the user
 * id and an expiry rounded to the hour, so every request within the same hour gets the same token
 * and media URLs stay stable for the browser cache.
 *
 * Format: `m2.<userId>.<expiresUnixSeconds>.<session tag>.<base64url HMAC-SHA256>`.
 *
 * The token is tied to the session that asked for it: the session tag is an HMAC of
 * the session's id (never the id itself), and a token whose session has ended (sign-out, expiry,
 * the sessions a password change or account deletion ends) stops working at once. The HMAC also
 * covers the user's `stamp` (their password hash, which changes with every password change): links
 * issued before a password change stop working after it, and those of a deleted account (no
 * stamp) at once.
 */
import crypto from "node:crypto";

export const MEDIA_TOKEN_WINDOW_S = 3600;

export function createMediaTokens(opts: {
  key: Buffer;
  /** The user's current credential stamp, or null when there is no such user. */
  stamp: (userId: number) => string | null;
  /** The ids of the user's sessions that have not ended. */
  sessionIds: (userId: number) => string[];
  now?: () => Date;
}) {
  // A key of its own, derived from the app's secret key (never used for anything else).
  const key = crypto.createHmac("sha256", opts.key).update("grapevine media token v1").digest();
  const now = opts.now ?? (() => new Date());
  const sign = (userId: number, exp: number, tag: string, stamp: string) =>
    crypto.createHmac("sha256", key).update(`${userId}.${exp}.${tag}.${stamp}`).digest("base64url");
  /** 16 base64url characters (96 bits) naming a session without showing its id. */
  const tagOf = (sessionId: string) =>
    crypto
      .createHmac("sha256", key)
      .update(`session.${sessionId}`)
      .digest("base64url")
      .slice(0, 16);
  const same = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && crypto.timingSafeEqual(x, y);
  };

  return {
    issue(userId: number, sessionId: string): { token: string; expiresAt: string } {
      const stamp = opts.stamp(userId) ?? "";
      const t = Math.floor(now().getTime() / 1000);
      const exp = (Math.floor(t / MEDIA_TOKEN_WINDOW_S) + 2) * MEDIA_TOKEN_WINDOW_S;
      const tag = tagOf(sessionId);
      return {
        token: `m2.${userId}.${exp}.${tag}.${sign(userId, exp, tag, stamp)}`,
        expiresAt: new Date(exp * 1000).toISOString(),
      };
    },
    /** The user id the token was issued to, or null (malformed, forged, expired, session ended). */
    verify(token: string): number | null {
      const m = /^m2\.(\d{1,15})\.(\d{1,12})\.([\w-]{16})\.([\w-]{43})$/.exec(token);
      if (!m) return null;
      const userId = Number(m[1]);
      const exp = Number(m[2]);
      const tag = m[3] as string;
      const stamp = opts.stamp(userId);
      if (stamp === null) return null;
      if (!same(m[4] as string, sign(userId, exp, tag, stamp))) return null;
      if (exp * 1000 <= now().getTime()) return null;
      if (!opts.sessionIds(userId).some((id) => same(tagOf(id), tag))) return null;
      return userId;
    },
  };
}
export type MediaTokens = ReturnType<typeof createMediaTokens>;
