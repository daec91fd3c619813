/**
 * Error answers carry a stable code and its values beside the English sentence (docs/api.md
 * "Errors"): a thrown AppError, a request that fails its schema (with its details), a middleware's
 * own answer and a 404 of an unknown route. The web app shows the code's sentence in the
 * reader's language (web/lib/api.test.ts).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../harness.ts";
import { call, type ErrorBody } from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

describe("error answers are { error, code, values }", () => {
  test("a field check names the field by its key; each detail keeps its path and code", async () => {
    const u = await h.register();
    const r = await call(h, "POST", "/api/orders", {
      token: u.token,
      body: { asin: "B000TEST01", rating: 9 },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: "Product name is required",
      code: "field_required",
      values: { field: "productname" },
      details: [
        {
          path: "productname",
          message: "Product name is required",
          code: "field_required",
          values: { field: "productname" },
        },
        {
          path: "rating",
          message: "Rating must be a whole number from 1 to 5, or empty",
          code: "rating_invalid",
          values: {},
        },
      ],
    });
  });

  test("a service's refusal carries the values its sentence uses", async () => {
    const u = await h.register();
    const made = await call<{ orderid: number }>(h, "POST", "/api/orders", {
      token: u.token,
      body: { productname: "Kettle", asin: "B000TEST02", status: "Review Approved" },
    });
    expect(made.status).toBe(201);
    const r = await call(h, "POST", `/api/orders/${made.body.orderid}/delivered`, {
      token: u.token,
      body: {},
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error:
        "This order is already Review Approved: only an order on its way can be marked delivered",
      code: "mark_delivered_status",
      values: { status: "Review Approved" },
    });
  });

  test("a 429 keeps its Retry-After and says the wait as a value", async () => {
    await h.register("ann@example.test", "right-password");
    let last: Awaited<ReturnType<typeof call<ErrorBody>>> | null = null;
    for (let i = 0; i < 30; i++) {
      last = await call(h, "POST", "/api/auth/login", {
        body: { email: "ann@example.test", password: "wrong-password" },
      });
      if (last.status === 429) break;
    }
    expect(last?.status).toBe(429);
    expect(last?.body.code).toBe("too_many_failed_sign_ins");
    const minutes = last?.body.values.minutes as number;
    expect(minutes).toBeGreaterThan(0);
    expect(last?.body.error).toBe(
      `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
    );
    expect(Number(last?.res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("the middlewares' own answers and an unknown route have codes too", async () => {
    const none = await call(h, "GET", "/api/orders");
    expect(none.body).toEqual({
      error: "Access token required",
      code: "token_required",
      values: {},
    });
    const bad = await call(h, "GET", "/api/orders", { token: "not-a-session" });
    expect(bad.body).toEqual({ error: "Invalid token", code: "token_invalid", values: {} });
    const u = await h.register();
    const missing = await call(h, "GET", "/api/no-such-thing", { token: u.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: "Not found: GET /api/no-such-thing",
      code: "route_not_found",
      values: { method: "GET", path: "/api/no-such-thing" },
    });
  });
});
