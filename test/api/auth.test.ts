/** Registration, sign-in, sign-in throttling and bearer tokens (docs/behaviour.md#validation, docs/behaviour.md#who-may-do-what, docs/messages.md). */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { hashToken } from "../../src/features/auth/auth.service.ts";
import { createHarness, type Harness } from "../harness.ts";
import {
  type AuthBody,
  call,
  dbSnapshot,
  type ErrorBody,
  login,
  sessionCount,
  userCount,
  userRow,
  userRows,
} from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const register = (body: Record<string, unknown>) =>
  call<AuthBody & ErrorBody>(h, "POST", "/api/auth/register", { body });

describe("POST /api/auth/register", () => {
  test("201 with a token and the public user; the first user gets userid 1", async () => {
    const { status, body } = await register({
      email: "alice@example.com",
      password: "secret1",
      displayname: "Alice",
    });
    expect(status).toBe(201);
    expect(typeof body.token).toBe("string");
    expect(body.token.length).toBeGreaterThan(20);
    expect(body.user).toEqual({ userid: 1, email: "alice@example.com", displayname: "Alice" });
    expect(Object.keys(body).sort()).toEqual(["token", "user"]);

    // the token works straight away
    const me = await call<{ email: string }>(h, "GET", "/api/user/data", { token: body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("alice@example.com");

    // the token itself is never stored, only its hash
    const stored = h.db.$client.query("SELECT id FROM sessions").all() as { id: string }[];
    expect(stored).toEqual([{ id: hashToken(body.token) }]);
    expect(userRows(h)[0]!.password_hash).not.toContain("secret1");
  });

  test("the email is trimmed and lower-cased, the display name trimmed", async () => {
    const { status, body } = await register({
      email: "  Alice.Smith@Example.COM  ",
      password: "secret1",
      displayname: "  Alice  ",
    });
    expect(status).toBe(201);
    expect(body.user.email).toBe("alice.smith@example.com");
    expect(body.user.displayname).toBe("Alice");
    expect(userRow(h, body.user.userid)!.email).toBe("alice.smith@example.com");

    // and the person can sign in with any casing of it
    const res = await login(h, "ALICE.SMITH@example.com ", "secret1");
    expect(res.status).toBe(200);
  });

  test("a second user gets the next userid", async () => {
    const a = await register({ email: "a@example.com", password: "secret1", displayname: "Ann" });
    const b = await register({ email: "b@example.com", password: "secret1", displayname: "Bob" });
    expect(a.body.user.userid).toBe(1);
    expect(b.body.user.userid).toBe(2);
  });

  test("a duplicate email, in any case, is 409 with a message and creates nothing", async () => {
    await register({ email: "alice@example.com", password: "secret1", displayname: "Alice" });
    const before = dbSnapshot(h);
    for (const email of ["alice@example.com", "ALICE@Example.com", "  Alice@example.com "]) {
      const { status, body } = await register({
        email,
        password: "other-password",
        displayname: "Impostor",
      });
      expect(status).toBe(409);
      expect(body.error).toBe("An account with this email already exists. Sign in instead.");
    }
    expect(dbSnapshot(h)).toBe(before);
    expect(userCount(h)).toBe(1);
    // the original password still works, the impostor's does not
    expect((await login(h, "alice@example.com", "secret1")).status).toBe(200);
    expect((await login(h, "alice@example.com", "other-password")).status).toBe(401);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    [
      "an email without @",
      { email: "not-an-email", password: "secret1", displayname: "Al" },
      "Enter a valid email address",
    ],
    [
      "an email without a domain dot",
      { email: "a@b", password: "secret1", displayname: "Al" },
      "Enter a valid email address",
    ],
    [
      "an empty email",
      { email: "   ", password: "secret1", displayname: "Al" },
      "Email is required",
    ],
    ["a missing email", { password: "secret1", displayname: "Al" }, "Email is required"],
    [
      "a 5-character password",
      { email: "a@example.com", password: "12345", displayname: "Al" },
      "Password must be at least 6 characters long",
    ],
    ["a missing password", { email: "a@example.com", displayname: "Al" }, "Password is required"],
    [
      "a 1-character display name",
      { email: "a@example.com", password: "secret1", displayname: "A" },
      "Display name must be at least 2 characters long",
    ],
    [
      "a display name of spaces around one letter",
      { email: "a@example.com", password: "secret1", displayname: "  A  " },
      "Display name must be at least 2 characters long",
    ],
    [
      "a missing display name",
      { email: "a@example.com", password: "secret1" },
      "Display name is required",
    ],
  ];
  for (const [what, body, message] of invalid) {
    test(`${what} is 400 "${message}" and creates no user`, async () => {
      const res = await register(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
      expect(userCount(h)).toBe(0);
      expect(sessionCount(h)).toBe(0);
    });
  }

  test("a password of exactly 6 characters and a display name of 2 are accepted", async () => {
    const { status } = await register({
      email: "min@example.com",
      password: "123456",
      displayname: "Al",
    });
    expect(status).toBe(201);
  });

  test("the details list every invalid field with its path", async () => {
    const { status, body } = await register({ email: "x", password: "1", displayname: "" });
    expect(status).toBe(400);
    const paths = [...new Set((body.details ?? []).map((d) => d.path))].sort();
    expect(paths).toEqual(["displayname", "email", "password"]);
  });
});

describe("registration closed (ALLOW_REGISTRATION=false)", () => {
  test("the first user can register; the second gets 403 with a message", async () => {
    await h.close();
    h = createHarness({ ALLOW_REGISTRATION: "false" });

    const first = await register({
      email: "admin@example.com",
      password: "secret1",
      displayname: "Admin",
    });
    expect(first.status).toBe(201);
    expect(first.body.user.userid).toBe(1);

    const before = dbSnapshot(h);
    const second = await register({
      email: "bob@example.com",
      password: "secret1",
      displayname: "Bob",
    });
    expect(second.status).toBe(403);
    expect(second.body.error).toBe(
      "Registration is closed on this Grapevine. Ask its administrator to create your account.",
    );
    expect(dbSnapshot(h)).toBe(before);
    expect(userCount(h)).toBe(1);

    // signing in still works for the existing user
    expect((await login(h, "admin@example.com", "secret1")).status).toBe(200);
  });
});

describe("POST /api/auth/login", () => {
  test("200 with a new token and the public user", async () => {
    const u = await h.register("carol@example.com", "secret1", "Carol");
    const { status, body } = await call<AuthBody>(h, "POST", "/api/auth/login", {
      body: { email: "carol@example.com", password: "secret1" },
    });
    expect(status).toBe(200);
    expect(body.user).toEqual({
      userid: u.userid,
      email: "carol@example.com",
      displayname: "Carol",
    });
    expect(body.token).not.toBe(u.token);
    expect(sessionCount(h)).toBe(2);
    // both sessions work
    for (const token of [u.token, body.token]) {
      expect((await h.req("GET", "/api/user/data", { token })).status).toBe(200);
    }
  });

  test("a wrong password and an unknown email get the same 401 message and no session", async () => {
    await h.register("carol@example.com", "secret1");
    const sessionsBefore = sessionCount(h);
    const wrong = await call(h, "POST", "/api/auth/login", {
      body: { email: "carol@example.com", password: "wrong-password" },
    });
    const unknown = await call(h, "POST", "/api/auth/login", {
      body: { email: "nobody@example.com", password: "secret1" },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error).toBe("Incorrect email or password");
    expect(unknown.body).toEqual(wrong.body);
    expect(sessionCount(h)).toBe(sessionsBefore);
  });

  test("an empty password is 400 'Password is required' (a short one is just a wrong one)", async () => {
    const empty = await call(h, "POST", "/api/auth/login", {
      body: { email: "carol@example.com", password: "" },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("Password is required");
  });
});

describe("sign-in throttling", () => {
  test("after 5 failures the 6th attempt, even with the right password, is 429 with Retry-After", async () => {
    await h.register("dave@example.com", "secret1");
    for (let i = 0; i < 5; i++) {
      const res = await login(h, "dave@example.com", `wrong-${i}`);
      expect(res.status).toBe(401);
    }
    const sessionsBefore = sessionCount(h);
    const res = await login(h, "dave@example.com", "secret1");
    expect(res.status).toBe(429);
    const retryAfter = res.headers.get("retry-after");
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(15 * 60);
    const body = (await res.json()) as ErrorBody;
    expect(body.error).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
    expect(sessionCount(h)).toBe(sessionsBefore);

    // the email's case does not get around it
    expect((await login(h, "DAVE@example.com", "secret1")).status).toBe(429);
  });

  test("another email is not throttled", async () => {
    await h.register("dave@example.com", "secret1");
    await h.register("erin@example.com", "secret1");
    for (let i = 0; i < 6; i++) await login(h, "dave@example.com", "wrong-password");
    expect((await login(h, "dave@example.com", "secret1")).status).toBe(429);
    expect((await login(h, "erin@example.com", "secret1")).status).toBe(200);
  });

  test("4 failures then a success resets the count", async () => {
    await h.register("dave@example.com", "secret1");
    for (let i = 0; i < 4; i++) await login(h, "dave@example.com", "wrong-password");
    expect((await login(h, "dave@example.com", "secret1")).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await login(h, "dave@example.com", "wrong-password")).status).toBe(401);
    }
    expect((await login(h, "dave@example.com", "secret1")).status).toBe(200);
  });
});

describe("bearer tokens", () => {
  test("no Authorization header is 401 exactly {error: 'Access token required'}", async () => {
    const headerSets: Record<string, string>[] = [
      {},
      { authorization: "" },
      { authorization: "Bearer" },
      { authorization: "Bearer   " },
    ];
    for (const headers of headerSets) {
      const res = await h.req("GET", "/api/user/data", { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: "Access token required",
        code: "token_required",
        values: {},
      });
    }
  });

  test("a garbage token is 401 exactly {error: 'Invalid token'}", async () => {
    await h.register();
    for (const authorization of [
      "Bearer garbage",
      "Basic dXNlcjpwYXNz",
      "garbage",
      `Bearer ${"x".repeat(5000)}`,
    ]) {
      const res = await h.req("GET", "/api/user/data", { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: "Invalid token",
        code: "token_invalid",
        values: {},
      });
    }
  });

  test("the scheme is case-insensitive", async () => {
    const u = await h.register();
    const res = await h.req("GET", "/api/user/data", {
      headers: { authorization: `bearer ${u.token}` },
    });
    expect(res.status).toBe(200);
  });

  test("after logout the token is 401 Invalid token; another session of the user still works", async () => {
    const u = await h.register("fay@example.com", "secret1");
    const other = ((await (await login(h, "fay@example.com", "secret1")).json()) as AuthBody).token;

    const out = await call(h, "POST", "/api/auth/logout", { token: u.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true, message: "Signed out" } as unknown as ErrorBody);

    const res = await h.req("GET", "/api/user/data", { token: u.token });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid token", code: "token_invalid", values: {} });
    expect(
      h.db.$client.query("SELECT COUNT(*) AS n FROM sessions WHERE id = ?").get(hashToken(u.token)),
    ).toEqual({ n: 0 });

    expect((await h.req("GET", "/api/user/data", { token: other })).status).toBe(200);

    // logging out again with the dead token is refused like any other invalid token
    const again = await h.req("POST", "/api/auth/logout", { token: u.token });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({
      error: "Invalid token",
      code: "token_invalid",
      values: {},
    });
  });

  test("logout without a token is 401 Access token required", async () => {
    const res = await h.req("POST", "/api/auth/logout");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: "Access token required",
      code: "token_required",
      values: {},
    });
  });

  test("an expired session is 401 Invalid token and is forgotten", async () => {
    const u = await h.register();
    const id = hashToken(u.token);
    h.db.$client.run("UPDATE sessions SET expires_at = ? WHERE id = ?", [
      new Date(Date.now() - 1000).toISOString(),
      id,
    ]);
    const res = await h.req("GET", "/api/user/data", { token: u.token });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid token", code: "token_invalid", values: {} });
    expect(h.db.$client.query("SELECT COUNT(*) AS n FROM sessions WHERE id = ?").get(id)).toEqual({
      n: 0,
    });
  });

  test("a session used after an hour has its expiry pushed forward", async () => {
    const u = await h.register();
    const id = hashToken(u.token);
    const soon = new Date(Date.now() + 60_000).toISOString();
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    h.db.$client.run("UPDATE sessions SET expires_at = ?, last_used_at = ? WHERE id = ?", [
      soon,
      twoHoursAgo,
      id,
    ]);
    expect((await h.req("GET", "/api/user/data", { token: u.token })).status).toBe(200);
    const row = h.db.$client.query("SELECT expires_at FROM sessions WHERE id = ?").get(id) as {
      expires_at: string;
    };
    expect(Date.parse(row.expires_at)).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
  });
});

describe("session lifetime", () => {
  const expiresIn = (token: string) => {
    const row = h.db.$client
      .query("SELECT expires_at FROM sessions WHERE id = ?")
      .get(hashToken(token)) as { expires_at: string };
    return Date.parse(row.expires_at) - Date.now();
  };
  const DAY = 24 * 3600_000;

  test("a session lasts SESSION_DAYS (30 by default)", async () => {
    const u = await h.register();
    expect(Math.abs(expiresIn(u.token) - 30 * DAY)).toBeLessThan(60_000);
  });

  test("SESSION_DAYS=1 gives one-day sessions", async () => {
    await h.close();
    h = createHarness({ SESSION_DAYS: "1" });
    const u = await h.register();
    expect(Math.abs(expiresIn(u.token) - DAY)).toBeLessThan(60_000);
  });
});

describe("concurrent requests", () => {
  test("two simultaneous registrations with one email: one 201, one 409", async () => {
    const body = { email: "twin@example.com", password: "secret1", displayname: "Twin" };
    const results = await Promise.all([
      register(body),
      register({ ...body, email: "TWIN@example.com" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(userCount(h)).toBe(1);
  });

  // BUG (see report): auth.service.ts login() checks throttle.retryAfter() before the awaited
  // Bun.password.verify() and records the failure only after it, so parallel attempts all pass the
  // check: a burst of 20 guesses gets 20 answers and a correct one among them signs in.
  test("a burst of parallel wrong passwords gets at most 5 tries", async () => {
    await h.register("burst@example.com", "secret1");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(h, "burst@example.com", `wrong-${i}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
  });

  test("the right password hidden in a parallel burst of wrong ones does not sign in", async () => {
    await h.register("burst@example.com", "secret1");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        login(h, "burst@example.com", i === 19 ? "secret1" : `wrong-${i}`),
      ),
    );
    expect(results[19]!.status).toBe(429);
  });

  // BUG (see report): auth.service.ts register() checks users.count() before the awaited password
  // hash and inserts after it, so with registration closed several first sign-ups all succeed.
  test("with registration closed, simultaneous first registrations create only one user", async () => {
    await h.close();
    h = createHarness({ ALLOW_REGISTRATION: "false" });
    const results = await Promise.all(
      ["a", "b", "c"].map((n) =>
        register({ email: `${n}@example.com`, password: "secret1", displayname: "Someone" }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    expect(userCount(h)).toBe(1);
  });
});

describe("behind a proxy (TRUST_PROXY=true)", () => {
  // BUG (see report): app.ts takes the LEFTMOST X-Forwarded-For entry, which the client writes;
  // a proxy appends the address it saw on the right. Changing the first entry resets the throttle.
  test("a client cannot escape the throttle by forging X-Forwarded-For", async () => {
    await h.close();
    h = createHarness({ TRUST_PROXY: "true" });
    await h.register("proxy@example.com", "secret1");
    const attempt = (forged: string, password: string) =>
      h.req("POST", "/api/auth/login", {
        body: { email: "proxy@example.com", password },
        headers: { "x-forwarded-for": `${forged}, 203.0.113.7` },
      });
    for (let i = 0; i < 5; i++)
      expect((await attempt("1.1.1.1", "wrong-password")).status).toBe(401);
    expect((await attempt("1.1.1.1", "secret1")).status).toBe(429);
    expect((await attempt("9.9.9.9", "secret1")).status).toBe(429);
  });
});
