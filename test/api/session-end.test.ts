/**
 * When a session ends its live-event streams end with it, at once (not at the
 * next heartbeat, 25 s later): sign-out ends that session's streams, a password change those of
 * every other session, account deletion all of them. Media `?token=` links issued before a
 * password change stop working after it.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../harness.ts";
import { png } from "../support/media-files.ts";
import { call } from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  h.services.sse.closeAll();
  await h.close();
});

/** Opens a stream and reads it: `ended` resolves when the server ends the body. */
async function openStream(token: string) {
  const res = await h.app.request(`/api/events/stream?token=${encodeURIComponent(token)}`);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const ended = (async () => {
    for (;;) {
      const r = await reader.read();
      if (r.done) return text;
      text += decoder.decode(r.value, { stream: true });
    }
  })();
  return {
    ended,
    get text() {
      return text;
    },
  };
}

const signIn = async (email: string, password: string) =>
  (
    await call<{ token: string }>(h, "POST", "/api/auth/login", {
      body: { email, password },
    })
  ).body.token;

describe("live-event streams", () => {
  test("signing out ends that session's streams at once; other sessions' streams stay", async () => {
    const u = await h.register("out@example.com", "secret1");
    const phone = await signIn("out@example.com", "secret1");
    const a = await openStream(u.token);
    const b = await openStream(u.token);
    const other = await openStream(phone);
    expect(h.services.sse.count(u.userid)).toBe(3);

    const res = await call(h, "POST", "/api/auth/logout", { token: u.token });
    expect(res.status).toBe(200);
    // Closed by the sign-out itself: the heartbeat (25 s) has not come.
    expect(h.services.sse.count(u.userid)).toBe(1);
    await a.ended;
    await b.ended;

    // The phone's stream still delivers this user's events.
    h.services.events.publish(u.userid, "order.created");
    h.services.sse.closeAll();
    expect(await other.ended).toContain('"type":"order.created"');
  });

  test("a password change ends every other session's streams, not this one's", async () => {
    const u = await h.register("pw@example.com", "secret1");
    const laptop = await signIn("pw@example.com", "secret1");
    const mine = await openStream(u.token);
    const theirs = await openStream(laptop);
    const res = await call(h, "PUT", "/api/user/password", {
      token: u.token,
      body: { currentPassword: "secret1", newPassword: "brand-new-1" },
    });
    expect(res.status).toBe(200);
    expect(h.services.sse.count(u.userid)).toBe(1);
    await theirs.ended;
    h.services.events.publish(u.userid, "review-settings.updated");
    h.services.sse.closeAll();
    expect(await mine.ended).toContain('"type":"review-settings.updated"');
  });

  test("a wrong current password ends nothing", async () => {
    const u = await h.register("keep@example.com", "secret1");
    const laptop = await signIn("keep@example.com", "secret1");
    await openStream(laptop);
    const res = await call(h, "PUT", "/api/user/password", {
      token: u.token,
      body: { currentPassword: "wrong-one", newPassword: "brand-new-1" },
    });
    expect(res.status).toBe(400);
    expect(h.services.sse.count(u.userid)).toBe(1);
  });

  test("deleting the account ends all its streams; another user's stay", async () => {
    const u = await h.register("gone@example.com", "secret1");
    const other = await h.register("stays@example.com", "secret1");
    const s = await openStream(u.token);
    await openStream(other.token);
    const res = await call(h, "DELETE", "/api/user", {
      token: u.token,
      body: { password: "secret1" },
    });
    expect(res.status).toBe(200);
    expect(h.services.sse.count(u.userid)).toBe(0);
    expect(h.services.sse.count(other.userid)).toBe(1);
    await s.ended;
  });
});

describe("media links", () => {
  async function mediaUrl(token: string): Promise<string> {
    const order = await call<{ orderid: number }>(h, "POST", "/api/orders", {
      token,
      body: { productname: "Desk lamp", asin: "B000LAMP01", status: "Received" },
    });
    const fd = new FormData();
    fd.append("images", new File([png()], "a.png", { type: "image/png" }));
    const up = await call<{ urls: string[] }>(
      h,
      "POST",
      `/api/orders/${order.body.orderid}/review/images`,
      { token, raw: fd },
    );
    expect(up.status).toBe(200);
    return up.body.urls[0]!;
  }
  const mediaToken = async (token: string) =>
    (await call<{ token: string }>(h, "GET", "/api/media/token", { token })).body.token;

  test("a ?token= link issued before a password change stops working after it", async () => {
    const u = await h.register("media@example.com", "secret1");
    const url = await mediaUrl(u.token);
    const before = await mediaToken(u.token);
    expect((await h.req("GET", `${url}?token=${before}`)).status).toBe(200);

    const res = await call(h, "PUT", "/api/user/password", {
      token: u.token,
      body: { currentPassword: "secret1", newPassword: "brand-new-1" },
    });
    expect(res.status).toBe(200);
    const old = await call(h, "GET", `${url}?token=${before}`);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe("This media link has expired or is not valid; reload the page");

    // A token asked for after the change works (the page renews its token on reload).
    const after = await mediaToken(u.token);
    expect(after).not.toBe(before);
    expect((await h.req("GET", `${url}?token=${after}`)).status).toBe(200);
  });
});
