/**
 * Access tokens kept in memory until shortly before they expire, with one fetch in flight at a
 * time per key (callers that arrive meanwhile share it). Used by the carriers' client-credentials
 * tokens (src/tracking/oauth.ts) and Gmail's per-user access tokens (src/mail/oauth/google.ts).
 * Tokens never leave this object except to the caller; nothing here logs.
 */
export function createTokenCache<K>(opts: {
  /** Milliseconds since the epoch (a controlled clock in tests). */
  now: () => number;
  /** How long before its expiry a token of this lifetime (ms) is renewed. */
  renewBeforeMs: (lifeMs: number) => number;
}) {
  /** `tag` ties a token to what it was made from (say, a refresh token's hash). */
  const entries = new Map<K, { token: string; renewAt: number; tag: string | undefined }>();
  const inFlight = new Map<string, Promise<unknown>>();

  return {
    /** The live token for `key` (made from `tag`, when given), or null. */
    get(key: K, tag?: string): string | null {
      const e = entries.get(key);
      if (!e || e.tag !== tag || opts.now() >= e.renewAt) return null;
      return e.token;
    },
    /** Keeps a token that lives `lifeMs` from now. */
    put(key: K, token: string, lifeMs: number, tag?: string): void {
      entries.set(key, { token, renewAt: opts.now() + lifeMs - opts.renewBeforeMs(lifeMs), tag });
    },
    /** Forgets the key's token (only if it is `token`, when given: a refused one). */
    drop(key: K, token?: string): void {
      if (token === undefined || entries.get(key)?.token === token) entries.delete(key);
    },
    /** Runs `fetch` unless a fetch under the same flight key is running: then shares that one. */
    once<T>(flightKey: string, fetch: () => Promise<T>): Promise<T> {
      let p = inFlight.get(flightKey) as Promise<T> | undefined;
      if (!p) {
        p = fetch().finally(() => inFlight.delete(flightKey));
        inFlight.set(flightKey, p);
      }
      return p;
    },
  };
}
export type TokenCache<K> = ReturnType<typeof createTokenCache<K>>;
