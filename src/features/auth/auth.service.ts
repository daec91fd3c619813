/** Accounts and sessions: registration, sign-in with throttling, bearer tokens, sign-out. */
import type { LoginBody, PublicUser, RegisterBody } from "../../contract/index.ts";
import type { UserRow } from "../../db/schema.ts";
import { AppError, conflict, forbidden, storageFault } from "../../lib/errors.ts";
import type { UsersRepo } from "../users/users.repo.ts";
import type { LoginThrottle } from "./login-throttle.ts";
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
  throttle: LoginThrottle;
  allowRegistration: boolean;
  sessionDays: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const sessionMs = deps.sessionDays * 24 * 60 * 60 * 1000;
  // A real hash to compare against when the email is unknown, so timing does not reveal accounts.
  // Made on first use: hashing at boot would add ~130 ms and memory to every start.
  let dummyHash: Promise<string> | null = null;
  const getDummyHash = () => {
    dummyHash ??= Bun.password.hash("grapevine-dummy-password");
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
      // Hash first: the checks and the insert below then run without yielding, so two sign-ups at
      // the same moment cannot both pass the "registration closed" or "email taken" checks.
      const passwordHash = await Bun.password.hash(body.password);
      if (!deps.allowRegistration && deps.users.count() > 0) {
        throw forbidden(
          "Registration is closed on this Grapevine. Ask its administrator to create your account.",
        );
      }
      if (deps.users.findByEmail(body.email)) {
        throw conflict("An account with this email already exists. Sign in instead.");
      }
      const user = deps.users.insert({
        email: body.email,
        displayname: body.displayname,
        passwordHash,
      });
      return startSession(user, client);
    },

    async login(body: LoginBody, client: ClientInfo) {
      const key = `${body.email}|${client.ip ?? "?"}`;
      const wait = deps.throttle.retryAfter(key);
      if (wait > 0) {
        const minutes = Math.ceil(wait / 60);
        throw new AppError(
          429,
          `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
          undefined,
          { "Retry-After": String(wait) },
        );
      }
      // Count the attempt before the (slow) password check, so a burst of parallel guesses
      // cannot all pass the limit; a success clears it.
      deps.throttle.fail(key);
      const user = deps.users.findByEmail(body.email);
      const ok = await Bun.password.verify(
        body.password,
        user?.passwordHash ?? (await getDummyHash()),
      );
      if (!user || !ok) throw new AppError(401, "Incorrect email or password");
      deps.throttle.clear(key);
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
    },

    isAdmin: (user: { id: number }) => user.id === ADMIN_USER_ID,
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
