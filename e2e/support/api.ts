/**
 * Talking to the real server directly: register and sign in users, revoke sessions. Tests use these
 * to set up state quickly; everything a user does is still done through the browser.
 */
import { type APIRequestContext, expect, type Page } from "@playwright/test";

export const TOKEN_KEY = "auth-token";

export type Credentials = { email: string; password: string; displayname: string };
export type PublicUser = { userid: number; email: string; displayname: string };
export type Session = { token: string; user: PublicUser };
export type Account = Credentials & Session;

/** The administrator is whoever registered first (userid 1); ensureAdmin() makes sure it is this one. */
export const ADMIN: Credentials = {
  email: "admin@example.test",
  password: "admin-password-1",
  displayname: "Ada Admin",
};

let counter = 0;

/** An email no other test in this run (or an earlier run on the same database) can have used. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  const salt = `${Date.now()}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  return `${prefix}-${salt}@example.test`;
}

/** Fresh credentials; nothing is registered yet. */
export function newCredentials(prefix = "user", displayname = "Vera Vine"): Credentials {
  return { email: uniqueEmail(prefix), password: "secret-pass-1", displayname };
}

export async function registerApi(
  request: APIRequestContext,
  creds: Credentials,
): Promise<{ status: number; session: Session | null }> {
  const res = await request.post("/api/auth/register", { data: creds });
  if (res.status() !== 201) return { status: res.status(), session: null };
  return { status: 201, session: (await res.json()) as Session };
}

export async function loginApi(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<Session> {
  const res = await request.post("/api/auth/login", { data: { email, password } });
  expect(res.status(), `sign-in of ${email}: ${await res.text()}`).toBe(200);
  return (await res.json()) as Session;
}

/** Revokes the session of this token on the server (what "Logout" does on another device). */
export async function logoutApi(request: APIRequestContext, token: string): Promise<void> {
  const res = await request.post("/api/auth/logout", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
}

/**
 * Registers the administrator once per run, so it is the first user (userid 1) whatever spec runs
 * first; on later calls it signs in (first, since refused sign-ups from one address are throttled).
 */
export async function ensureAdmin(request: APIRequestContext): Promise<Account> {
  const signIn = await request.post("/api/auth/login", {
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  let status = signIn.status();
  let s: Session | null = status === 200 ? ((await signIn.json()) as Session) : null;
  if (!s) ({ status, session: s } = await registerApi(request, ADMIN));
  expect(s, `registering the admin answered ${status}`).not.toBeNull();
  expect(s!.user.userid, "the admin must be the first user of the run").toBe(1);
  return { ...ADMIN, ...s! };
}

/** Registers a new (non-admin) user through the API. */
export async function createUser(
  request: APIRequestContext,
  opts: { prefix?: string; displayname?: string } = {},
): Promise<Account> {
  const creds = newCredentials(opts.prefix, opts.displayname);
  const { status, session } = await registerApi(request, creds);
  expect(status, `registering ${creds.email}`).toBe(201);
  return { ...creds, ...session! };
}

/**
 * Puts a session token where the web app keeps it, as if the user had signed in in this browser,
 * then opens `path`. The token is written once (not on every navigation), so a later sign-out sticks.
 */
export async function signInWithToken(page: Page, token: string, path = "/"): Promise<void> {
  await page.goto("/privacy-policy");
  await page.evaluate(({ key, value }) => localStorage.setItem(key, value), {
    key: TOKEN_KEY,
    value: token,
  });
  await page.goto(path);
}

export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
}
