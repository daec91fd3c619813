/** Accounts and sessions: registration, sign-in with throttling, bearer tokens, sign-out. */
import type { LoginBody, PublicUser, RegisterBody } from "../../contract/index.ts";
import type { UserRow } from "../../db/schema.ts";
import { AppError, conflict, forbidden, storageFault } from "../../util/errors.ts";
import { createRateWindow } from "../../util/rate-window.ts";
import type { UsersRepo } from "../users/users.repo.ts";
import { ACCOUNT_MAX_FAILURES, type LoginThrottle, THROTTLE_KEYS } from "./login-throttle.ts";
import type { Passwords } from "./passwords.ts";
import type { SessionsRepo } from "./sessions.repo.ts";

export const ADMIN_USER_ID = 1;
const TOUCH_EVERY_MS = 60 * 60 * 1000;

export function toPublicUser(u: UserRow): PublicUser {
  return { userid: u.id, email: u.email, displayname: u.displayname };
}

export function hashToken(token: string): string {
  return Bun.CryptoHasher.hash("sha256", token, "hex");
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Buffer.from(bytes).toString("base64url");
}

export type ClientInfo = { ip: string | null; userAgent: string | null };

export function createAuthService(deps: {
  users: UsersRepo;
  sessions: SessionsRepo;
  passwords: Passwords;
  throttle: LoginThrottle;
  /** Open live-event streams (events/sse.ts): a session's streams end with it. */
  streams?: { closeSession: (sessionId: string) => number };
  allowRegistration: boolean;
  sessionDays: number;
  /** SIGNUP_HOURLY_LIMIT: accounts one client address may create per hour. */
  signupHourlyLimit: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const signups = createRateWindow({
    limit: deps.signupHourlyLimit,
    windowMs: 3600_000,
    now: () => now().getTime(),
  });
  const sessionMs = deps.sessionDays * 24 * 60 * 60 * 1000;
  // A real hash to compare against when the email is unknown, so timing does not reveal accounts.
  // Made on first use: hashing at boot would add ~130 ms and memory to every start.
  let dummyHash: Promise<string> | null = null;
  const getDummyHash = () => {
    dummyHash ??= deps.passwords.hash("grapevine-dummy-password");
    return dummyHash;
  };

  function startSession(user: UserRow, client: ClientInfo) {
    const token = newToken();
    const t = now();
    deps.sessions.insert({
      id: hashToken(token),
      userId: user.id,
      createdAt: t.toISOString(),
      lastUsedAt: t.toISOString(),
      expiresAt: new Date(t.getTime() + sessionMs).toISOString(),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
    });
    return { token, user: toPublicUser(user) };
  }

  return {
    async register(body: RegisterBody, client: ClientInfo) {
      // Refused sign-ups (closed, email taken) are counted per address: they would otherwise let
      // anyone test which addresses have accounts as fast as they like.
      const key = THROTTLE_KEYS.register(client.ip);
      deps.throttle.assertAllowed(key, "too_many_refused_signups");
      const refuse = () => {
        if (!deps.allowRegistration && deps.users.count() > 0) {
          deps.throttle.fail(key);
          throw forbidden("registration_closed");
        }
        if (deps.users.findByEmail(body.email)) {
          deps.throttle.fail(key);
          throw conflict("account_exists");
        }
      };
      // The cheap checks first, so a refused sign-up costs no password hash; again after the
      // hash: the checks and the insert then run without yielding, so two sign-ups at the same
      // moment cannot both pass them.
      refuse();
      // Accounts per address and hour: counted before the hash, so a parallel burst
      // cannot pass the limit.
      const slot = signups.hit(client.ip ?? "?");
      if (!slot.ok) {
        const wait = Math.ceil(slot.retryAfterMs / 1000);
        const minutes = Math.ceil(wait / 60);
        throw new AppError(429, "too_many_signups", { minutes }, undefined, {
          "Retry-After": String(wait),
        });
      }
      const passwordHash = await deps.passwords.hash(body.password);
      refuse();
      const user = deps.users.insert({
        email: body.email,
        displayname: body.displayname,
        passwordHash,
      });
      deps.throttle.remember(body.email, client.ip);
      return startSession(user, client);
    },

    async login(body: LoginBody, client: ClientInfo) {
      const key = THROTTLE_KEYS.signIn(body.email, client.ip);
      const account = THROTTLE_KEYS.account(body.email);
      deps.throttle.assertAllowed(key, "too_many_failed_sign_ins");
      const user = deps.users.findByEmail(body.email);
      // Guesses per account across addresses; an address the account signed in from before (this
      // process remembers it, or one of its sessions came from there) is not held by it: the
      // owner is slowed by their own address's count only.
      const known =
        client.ip !== null &&
        (deps.throttle.isKnown(body.email, client.ip) ||
          (user !== undefined &&
            deps.sessions.listForUser(user.id).some((s) => s.ip === client.ip)));
      if (!known) {
        deps.throttle.assertAllowed(
          account,
          "too_many_failed_sign_ins_account",
          ACCOUNT_MAX_FAILURES,
        );
      }
      // Count the attempt before the (slow) password check, so a burst of parallel guesses
      // cannot all pass the limit; a success clears the address's count (not the account's).
      deps.throttle.fail(key);
      deps.throttle.fail(account);
      const ok = await deps.passwords.verify(
        body.password,
        user?.passwordHash ?? (await getDummyHash()),
      );
      if (!user || !ok) throw new AppError(401, "sign_in_wrong");
      deps.throttle.clear(key);
      deps.throttle.forgive(account);
      deps.throttle.remember(body.email, client.ip);
      return startSession(user, client);
    },

    /** The signed-in user for a bearer token, or null when missing, unknown, expired or revoked. */
    authenticate(token: string): { user: UserRow; sessionId: string } | null {
      if (!token || token.length > 200) return null;
      const id = hashToken(token);
      const session = deps.sessions.findById(id);
      if (!session) return null;
      const t = now();
      if (session.expiresAt <= t.toISOString()) {
        deps.sessions.delete(id);
        return null;
      }
      const user = deps.users.findById(session.userId);
      if (!user) return null;
      if (t.getTime() - Date.parse(session.lastUsedAt) > TOUCH_EVERY_MS) {
        try {
          deps.sessions.touch(id, t.toISOString(), new Date(t.getTime() + sessionMs).toISOString());
        } catch (err) {
          // A full disk or a database locked by another process must not fail a read: the
          // session is extended by a later request instead.
          if (!storageFault(err)) throw err;
        }
      }
      return { user, sessionId: id };
    },

    logout(sessionId: string) {
      deps.sessions.delete(sessionId);
      deps.streams?.closeSession(sessionId);
    },

    isAdmin: (user: { id: number }) => user.id === ADMIN_USER_ID,
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
