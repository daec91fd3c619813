/**
 * Every password check is throttled like sign-in (the one throttle of
 * features/auth/login-throttle.ts): PUT /api/user/password, DELETE /api/user and an email change
 * count per account, refused registrations per client address; 429 with Retry-After, nothing
 * changed. An email change needs the current password.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from "../../src/features/auth/login-throttle.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call, dbSnapshot, login, userCount, userRow } from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness({ TRUST_PROXY: "true" });
});
afterEach(async () => {
  await h.close();
});

const WINDOW_S = LOGIN_WINDOW_MS / 1000;

function expectThrottled(res: { status: number; body: { error: string }; res: Response }) {
  expect(res.status).toBe(429);
  expect(res.body.error).toMatch(/^Too many .+\. Try again in 15 minutes\.$/);
  const retry = Number(res.res.headers.get("retry-after"));
  expect(retry).toBeGreaterThan(WINDOW_S - 60);
  expect(retry).toBeLessThanOrEqual(WINDOW_S);
}

describe("PUT /api/user/password", () => {
  test(`after ${LOGIN_MAX_FAILURES} wrong current passwords: 429, even the right one changes nothing`, async () => {
    const u = await h.register("pw@example.com", "secret1");
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const res = await call(h, "PUT", "/api/user/password", {
        token: u.token,
        body: { currentPassword: `guess-${i}`, newPassword: "brand-new-1" },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Current password is incorrect");
    }
    const before = dbSnapshot(h);
    const res = await call(h, "PUT", "/api/user/password", {
      token: u.token,
      body: { currentPassword: "secret1", newPassword: "brand-new-1" },
    });
    expectThrottled(res);
    expect(res.body.error).toBe("Too many wrong passwords. Try again in 15 minutes.");
    expect(dbSnapshot(h)).toBe(before);
    expect((await login(h, "pw@example.com", "secret1")).status).toBe(200);
  });

  test("a parallel burst of guesses gets at most the allowed tries", async () => {
    const u = await h.register("burst@example.com", "secret1");
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        call(h, "PUT", "/api/user/password", {
          token: u.token,
          body: { currentPassword: `guess-${i}`, newPassword: "brand-new-1" },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBe(LOGIN_MAX_FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBe(15 - LOGIN_MAX_FAILURES);
  });

  test("the count is per account: a second session (or address) of the same user shares it", async () => {
    const u = await h.register("two@example.com", "secret1");
    const other = await h.register("other@example.com", "secret1");
    const second = (
      await call<{ token: string }>(h, "POST", "/api/auth/login", {
        body: { email: "two@example.com", password: "secret1" },
        headers: { "x-forwarded-for": "198.51.100.9" },
      })
    ).body.token;
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      await call(h, "PUT", "/api/user/password", {
        token: u.token,
        body: { currentPassword: `guess-${i}`, newPassword: "brand-new-1" },
        headers: { "x-forwarded-for": `203.0.113.${i}` },
      });
    }
    expectThrottled(
      await call(h, "DELETE", "/api/user", { token: second, body: { password: "secret1" } }),
    );
    // Another account is not affected.
    const ok = await call(h, "PUT", "/api/user/password", {
      token: other.token,
      body: { currentPassword: "secret1", newPassword: "brand-new-1" },
    });
    expect(ok.status).toBe(200);
  });

  test("a right password clears the count", async () => {
    const u = await h.register("clear@example.com", "secret1");
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) {
      await call(h, "PUT", "/api/user/password", {
        token: u.token,
        body: { currentPassword: `guess-${i}`, newPassword: "brand-new-1" },
      });
    }
    const ok = await call(h, "PUT", "/api/user/password", {
      token: u.token,
      body: { currentPassword: "secret1", newPassword: "brand-new-1" },
    });
    expect(ok.status).toBe(200);
    const wrong = await call(h, "PUT", "/api/user/password", {
      token: u.token,
      body: { currentPassword: "guess-x", newPassword: "brand-new-2" },
    });
    expect(wrong.status).toBe(400);
  });
});

describe("DELETE /api/user", () => {
  test(`after ${LOGIN_MAX_FAILURES} wrong passwords: 429 and the account stays`, async () => {
    const u = await h.register("del@example.com", "secret1");
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const res = await call(h, "DELETE", "/api/user", {
        token: u.token,
        body: { password: `guess-${i}` },
      });
      expect(res.status).toBe(400);
    }
    const res = await call(h, "DELETE", "/api/user", {
      token: u.token,
      body: { password: "secret1" },
    });
    expectThrottled(res);
    expect(userRow(h, u.userid)).not.toBeNull();
  });
});

describe("PUT /api/user/profile: a new email needs the current password", () => {
  test("missing: 400 with a sentence, nothing changes", async () => {
    const u = await h.register("old@example.com", "secret1", "Olive");
    const before = dbSnapshot(h);
    const res = await call(h, "PUT", "/api/user/profile", {
      token: u.token,
      body: { displayname: "Olive", email: "new@example.com" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Enter your current password to change your email address");
    expect(dbSnapshot(h)).toBe(before);
  });

  test("wrong: 400, counted by the throttle (429 after the limit), nothing changes", async () => {
    const u = await h.register("old@example.com", "secret1", "Olive");
    const before = dbSnapshot(h);
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const res = await call(h, "PUT", "/api/user/profile", {
        token: u.token,
        body: { displayname: "Olive", email: "new@example.com", currentPassword: `guess-${i}` },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        "Current password is incorrect. Your email address was not changed.",
      );
    }
    expectThrottled(
      await call(h, "PUT", "/api/user/profile", {
        token: u.token,
        body: { displayname: "Olive", email: "new@example.com", currentPassword: "secret1" },
      }),
    );
    expect(dbSnapshot(h)).toBe(before);
  });

  test("right: the email changes; the display name alone needs no password", async () => {
    const u = await h.register("old@example.com", "secret1", "Olive");
    const named = await call(h, "PUT", "/api/user/profile", {
      token: u.token,
      body: { displayname: "Olive Oyl", email: "OLD@example.com" },
    });
    expect(named.status).toBe(200);
    const moved = await call(h, "PUT", "/api/user/profile", {
      token: u.token,
      body: { displayname: "Olive Oyl", email: "new@example.com", currentPassword: "secret1" },
    });
    expect(moved.status).toBe(200);
    expect(userRow(h, u.userid)?.email).toBe("new@example.com");
  });
});

describe("POST /api/auth/register", () => {
  const register = (email: string, ip: string) =>
    call(h, "POST", "/api/auth/register", {
      body: { email, password: "secret1", displayname: "Someone" },
      headers: { "x-forwarded-for": ip },
    });

  test(`after ${LOGIN_MAX_FAILURES} refused sign-ups from an address: 429, even for a free email`, async () => {
    await h.register("taken@example.com");
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const res = await register("taken@example.com", "203.0.113.5");
      expect(res.status).toBe(409);
    }
    const users = userCount(h);
    const res = await register("free@example.com", "203.0.113.5");
    expectThrottled(res);
    expect(res.body.error).toBe(
      "Too many refused sign-ups from this address. Try again in 15 minutes.",
    );
    expect(userCount(h)).toBe(users);
    // Another address may still sign up.
    expect((await register("free@example.com", "198.51.100.7")).status).toBe(201);
  });

  test("with registration closed, refusals count too", async () => {
    await h.close();
    h = createHarness({ TRUST_PROXY: "true", ALLOW_REGISTRATION: "false" });
    expect((await register("admin@example.com", "203.0.113.5")).status).toBe(201);
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      expect((await register(`x${i}@example.com`, "203.0.113.6")).status).toBe(403);
    }
    expectThrottled(await register("y@example.com", "203.0.113.6"));
  });

  // (Sign-ups per address and hour have their own limit, raised by the harness:
  // test/api/security-audit-2.test.ts.)
  test("successful sign-ups do not count as refused ones (each creates an account)", async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES + 3; i++) {
      expect((await register(`many${i}@example.com`, "203.0.113.8")).status).toBe(201);
    }
  });
});
