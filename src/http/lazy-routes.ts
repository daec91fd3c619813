/**
 * A group of routes built with the first request under its prefix, not at start: a group's module
 * brings its request schemas, and the schemas the full zod build (together about 10 MB resident
 * for as long as the server runs; bench/startup.bench.ts prints what each module costs). A server
 * nobody uses never builds them; a request to a group builds that group once.
 *
 * The group answers inside the app it is mounted in, as if `app.route(prefix, group)` had been
 * called: the middleware before it has run (auth, the request log, the body limits), its variables
 * (`user`, `log`, `clientIp`…) are the group's, a variable the group sets is seen by that
 * middleware afterwards, an error goes to the app's `onError`, and a path the group does not know
 * falls through to what the app registers after it (the JSON 404).
 *
 *   app.all("/api/vine/*", lazyRoutes("/api/vine", () => require("./routes/vine.routes.ts").vineRoutes(vine)));
 *
 * `load` must `require` the module (Bun's synchronous require; the server bundle then evaluates
 * the module on that first call).
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "./types.ts";

/** What the outer request hands the group: its context and whether the group matched. */
type Outer = { context: Context<AppEnv>; missed: boolean };
type GroupEnv = AppEnv & { Bindings: { server?: unknown; outer: Outer } };

type Vars = Record<string, unknown>;

export function lazyRoutes(
  prefix: string,
  load: () => Hono<AppEnv>,
): MiddlewareHandler<AppEnv & { Bindings: { server?: unknown } }> {
  let group: Hono<GroupEnv> | undefined;
  const build = () => {
    const app = new Hono<GroupEnv>();
    app.use(async (c, next) => {
      const outer = c.env.outer.context;
      for (const [k, v] of Object.entries(outer.var as Vars)) c.set(k as never, v as never);
      try {
        await next();
      } finally {
        for (const [k, v] of Object.entries(c.var as Vars)) outer.set(k as never, v as never);
      }
    });
    app.route(prefix, load() as unknown as Hono<GroupEnv>);
    app.notFound((c) => {
      c.env.outer.missed = true;
      return c.body(null, 404);
    });
    // The app's onError answers, with the app's context (its log, its headers).
    app.onError((err) => {
      throw err;
    });
    return app;
  };
  return async (c, next) => {
    group ??= build();
    const outer: Outer = { context: c as unknown as Context<AppEnv>, missed: false };
    const res = await group.fetch(c.req.raw, { server: c.env?.server, outer });
    if (outer.missed) return next();
    return res;
  };
}
