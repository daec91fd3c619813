/**
 * Media read tokens: how <img> and <video> authenticate (they cannot send an Authorization
 * header). A signed-in client asks GET /api/media/token for one and appends it as ?token= to media
 * URLs. Unlike the session token, it only reads that user's media and lives 1-2 hours, so an image
 * address that is copied, or logged by a reverse proxy, exposes little. It is an HMAC over the user
 * id and an expiry rounded to the hour, so every request within the same hour gets the same token
 * and media URLs stay stable for the browser cache.
 *
 * Format: `m1.<userId>.<expiresUnixSeconds>.<base64url HMAC-SHA256>`.
 *
 * The HMAC also covers the user's `stamp` (their password hash, which changes with every password
 * change): links issued before a password change stop working after it, and those of a deleted
 * account (no stamp) at once.
 */
import crypto from "node:crypto";

export const MEDIA_TOKEN_WINDOW_S = 3600;

export function createMediaTokens(opts: {
  key: Buffer;
  /** The user's current credential stamp, or null when there is no such user. */
  stamp: (userId: number) => string | null;
  now?: () => Date;
}) {
  // A key of its own, derived from the app's secret key (never used for anything else).
  const key = crypto.createHmac("sha256", opts.key).update("grapevine media token v1").digest();
  const now = opts.now ?? (() => new Date());
  const sign = (userId: number, exp: number, stamp: string) =>
    crypto.createHmac("sha256", key).update(`${userId}.${exp}.${stamp}`).digest("base64url");

  return {
    issue(userId: number): { token: string; expiresAt: string } {
      const stamp = opts.stamp(userId) ?? "";
      const t = Math.floor(now().getTime() / 1000);
      const exp = (Math.floor(t / MEDIA_TOKEN_WINDOW_S) + 2) * MEDIA_TOKEN_WINDOW_S;
      return {
        token: `m1.${userId}.${exp}.${sign(userId, exp, stamp)}`,
        expiresAt: new Date(exp * 1000).toISOString(),
      };
    },
    /** The user id the token was issued to, or null (malformed, forged or expired). */
    verify(token: string): number | null {
      const m = /^m1\.(\d{1,15})\.(\d{1,12})\.([\w-]{43})$/.exec(token);
      if (!m) return null;
      const userId = Number(m[1]);
      const exp = Number(m[2]);
      const stamp = opts.stamp(userId);
      if (stamp === null) return null;
      const given = Buffer.from(m[3]!);
      const want = Buffer.from(sign(userId, exp, stamp));
      if (given.length !== want.length || !crypto.timingSafeEqual(given, want)) return null;
      if (exp * 1000 <= now().getTime()) return null;
      return userId;
    },
  };
}
export type MediaTokens = ReturnType<typeof createMediaTokens>;
