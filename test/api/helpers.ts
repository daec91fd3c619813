/** Small helpers shared by the API tests (not a test file itself). */
import type { Harness } from "../harness.ts";

/** An error answer (src/contract/errors.ts): the English sentence, its code and values. */
export type ErrorBody = {
  error: string;
  code: string;
  values: Record<string, string | number>;
  details?: {
    path: string;
    message: string;
    code: string;
    values: Record<string, string | number>;
  }[];
};
export type PublicUser = { userid: number; email: string; displayname: string };
export type AuthBody = { token: string; user: PublicUser };

/** The response body parsed as JSON, typed by the caller. */
export async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** Asserts nothing about the response; returns { status, body } for compact expectations. */
export async function call<T = ErrorBody>(
  h: Harness,
  method: string,
  url: string,
  opts?: Parameters<Harness["req"]>[2],
): Promise<{ status: number; body: T; res: Response }> {
  const res = await h.req(method, url, opts);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: body as T, res };
}

type UserDbRow = {
  id: number;
  email: string;
  displayname: string;
  password_hash: string;
  timezone: string | null;
  created_at: string;
  updated_at: string;
};

export function userRows(h: Harness): UserDbRow[] {
  return h.db.$client.query("SELECT * FROM users ORDER BY id").all() as UserDbRow[];
}

export function userRow(h: Harness, id: number): UserDbRow | null {
  return (h.db.$client.query("SELECT * FROM users WHERE id = ?").get(id) as UserDbRow) ?? null;
}

export function userCount(h: Harness): number {
  return (h.db.$client.query("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n;
}

export function sessionCount(h: Harness): number {
  return (h.db.$client.query("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;
}

/** Everything stored in users and sessions, for "nothing changed" assertions. */
export function dbSnapshot(h: Harness): string {
  const sessions = h.db.$client.query("SELECT * FROM sessions ORDER BY id").all();
  return JSON.stringify({ users: userRows(h), sessions });
}

export async function login(h: Harness, email: string, password: string): Promise<Response> {
  return h.req("POST", "/api/auth/login", { body: { email, password } });
}
