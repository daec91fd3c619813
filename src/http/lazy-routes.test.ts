/** A lazily built route group answers as if it had been mounted with app.route. */
import { expect, test } from "bun:test";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { lazyRoutes } from "./lazy-routes.ts";
import type { AppEnv } from "./types.ts";

type Env = AppEnv & { Bindings: { server?: unknown } };

function appWithLazyGroup() {
  let builds = 0;
  const seenAfter: unknown[] = [];
  const app = new Hono<Env>();
  app.use("/api/*", async (c, next) => {
    c.set("requestId", "req-1");
    await next();
    // What the group set is seen by the middleware before it, as with app.route.
    seenAfter.push(c.get("sessionId"));
    c.header("X-Outer", "yes");
  });
  app.all(
    "/api/things/*",
    lazyRoutes("/api/things", () => {
      builds++;
      return new Hono<AppEnv>()
        .get("/:id", (c) => {
          c.set("sessionId", `s-${c.req.param("id")}`);
          return c.json({ id: c.req.param("id"), requestId: c.get("requestId") });
        })
        .post("/", async (c) => c.json(await c.req.json(), 201))
        .get("/broken/now", () => {
          throw new HTTPException(418, { message: "the group's error" });
        });
    }),
  );
  app.all("/api/*", (c) => c.json({ error: `Not found: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) =>
    c.json({ error: err.message, by: "app" }, err instanceof HTTPException ? err.status : 500),
  );
  return { app, builds: () => builds, seenAfter };
}

test("the group is built with its first request, once", async () => {
  const { app, builds } = appWithLazyGroup();
  expect(builds()).toBe(0);
  await app.request("/api/other");
  expect(builds()).toBe(0);
  await app.request("/api/things/1");
  await app.request("/api/things/2");
  expect(builds()).toBe(1);
});

test("the group reads the app's variables, params and body; the app sees what it set", async () => {
  const { app, seenAfter } = appWithLazyGroup();
  const res = await app.request("/api/things/7");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ id: "7", requestId: "req-1" });
  expect(res.headers.get("X-Outer")).toBe("yes");
  expect(seenAfter).toEqual(["s-7"]);
  const posted = await app.request("/api/things", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ a: 1 }),
  });
  expect(posted.status).toBe(201);
  expect(await posted.json()).toEqual({ a: 1 });
});

test("an error in the group is answered by the app's onError", async () => {
  const { app } = appWithLazyGroup();
  const res = await app.request("/api/things/broken/now");
  expect(res.status).toBe(418);
  expect(await res.json()).toEqual({ error: "the group's error", by: "app" });
});

test("a path or method the group does not have falls through to what the app has after it", async () => {
  const { app } = appWithLazyGroup();
  const res = await app.request("/api/things/1", { method: "DELETE" });
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ error: "Not found: DELETE /api/things/1" });
});
