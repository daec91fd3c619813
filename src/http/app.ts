/** The HTTP application: middleware, /api routes, error mapping, and the web app with SPA fallback. */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import type { Config } from "../config.ts";
import { FIRST_SCREEN_PATH } from "../contract/constants.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../log.ts";
import type { Services } from "../services.ts";
import { AppError, errorBody, isDiskFull, storageFault } from "../util/errors.ts";
import { lazyRoutes } from "./lazy-routes.ts";
import { requireAdmin, requireAuth } from "./middleware/auth.ts";
import { dbWriteGate } from "./middleware/db-write-gate.ts";
import type { Drain } from "./middleware/drain.ts";
import { requestLog } from "./middleware/request-log.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { serveWeb } from "./middleware/static.ts";
import { adminRoutes } from "./routes/admin.routes.ts";
import { configRoutes } from "./routes/config.routes.ts";
import { dashboardRoutes } from "./routes/dashboard.routes.ts";
import { eventsRoutes } from "./routes/events.routes.ts";
import { healthRoutes } from "./routes/health.routes.ts";
import { notificationsRoutes } from "./routes/notifications.routes.ts";
import { oauthRoutes } from "./routes/oauth.routes.ts";
import type { AppEnv } from "./types.ts";
import { IMPORT_PATH, isMediaUploadPath } from "./upload-paths.ts";

// The route groups with request schemas are built with the first request under their prefix
// (lazy-routes.ts): each `require` below runs then, not at start.
type Routes<M> = () => M;
const routes = {
  alerts: (() => require("./routes/alerts.routes.ts")) as Routes<
    typeof import("./routes/alerts.routes.ts")
  >,
  auth: (() => require("./routes/auth.routes.ts")) as Routes<
    typeof import("./routes/auth.routes.ts")
  >,
  firstScreen: (() => require("./routes/first-screen.routes.ts")) as Routes<
    typeof import("./routes/first-screen.routes.ts")
  >,
  imap: (() => require("./routes/imap.routes.ts")) as Routes<
    typeof import("./routes/imap.routes.ts")
  >,
  mailImport: (() => require("./routes/mail-import.routes.ts")) as Routes<
    typeof import("./routes/mail-import.routes.ts")
  >,
  orders: (() => require("./routes/orders.routes.ts")) as Routes<
    typeof import("./routes/orders.routes.ts")
  >,
  reviewEnhance: (() => require("./routes/review-enhance.routes.ts")) as Routes<
    typeof import("./routes/review-enhance.routes.ts")
  >,
  reviewMedia: (() => require("./routes/review-media.routes.ts")) as Routes<
    typeof import("./routes/review-media.routes.ts")
  >,
  shipping: (() => require("./routes/shipping.routes.ts")) as Routes<
    typeof import("./routes/shipping.routes.ts")
  >,
  tracking: (() => require("./routes/tracking.routes.ts")) as Routes<
    typeof import("./routes/tracking.routes.ts")
  >,
  user: (() => require("./routes/user.routes.ts")) as Routes<
    typeof import("./routes/user.routes.ts")
  >,
  vine: (() => require("./routes/vine.routes.ts")) as Routes<
    typeof import("./routes/vine.routes.ts")
  >,
};

/** JSON bodies larger than this are refused with 413 before they are read. */
export const JSON_BODY_LIMIT = 1024 * 1024;

type ServerLike = { requestIP(req: Request): { address: string } | null };

export function createApp(deps: {
  config: Config;
  db: Db;
  log: Logger;
  services: Services;
  /** main.ts's graceful stop: 503 for new requests, running ones counted. */
  drain?: Drain;
}) {
  const { config, db, log, services } = deps;
  const app = new Hono<AppEnv & { Bindings: { server?: ServerLike } }>();

  app.use(requestLog(log));
  // CSP (pages and API), frame-ancestors, HSTS only over https: security-headers.ts.
  app.use(securityHeaders({ trustProxy: config.trustProxy }));
  if (deps.drain) app.use(deps.drain.middleware);
  app.use(
    "/api/*",
    secureHeaders({
      crossOriginResourcePolicy: "same-origin",
      xFrameOptions: "DENY",
      strictTransportSecurity: false,
      overwrite: false,
    }),
  );
  app.use("/api/*", async (c, next) => {
    let ip: string | null = null;
    // The last X-Forwarded-For entry is the one our proxy appended; earlier ones are the client's.
    if (config.trustProxy) ip = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim() || null;
    if (!ip) ip = c.env?.server?.requestIP(c.req.raw)?.address ?? null;
    c.set("clientIp", ip);
    await next();
  });
  // Writes wait (asynchronously) for a database lock held by another process; reads never do.
  app.use("/api/*", dbWriteGate(db));
  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: (c) => c.json(errorBody("body_too_large"), 413),
  });
  // The mail import streams its upload to disk under its own, larger limit (mail-import.routes.ts);
  // hono's bodyLimit would read a body sent without Content-Length into memory.
  // Review media uploads stream to disk too, with per-file limits (features/reviews/media.service.ts).
  app.use("/api/*", (c, next) =>
    c.req.path === IMPORT_PATH || isMediaUploadPath(c.req.method, c.req.path)
      ? next()
      : jsonBodyLimit(c, next),
  );

  const auth = requireAuth(services.auth);
  /** `app.route(prefix, group)`, the group built with the first request under the prefix. */
  const mount = (prefix: string, group: () => Hono<AppEnv>) => {
    app.all(`${prefix}/*`, lazyRoutes(prefix, group));
  };
  app.route("/api/health", healthRoutes(services.health, new Date()));
  // Gmail OAuth: GET /api/auth/google needs a token (checked in the route); its /callback is a
  // redirect from Google without one (the state names the user). Before the accounts routes.
  app.route("/api/auth/google", oauthRoutes({ oauth: services.gmailOAuth, requireAuth: auth }));
  mount("/api/auth", () => routes.auth().authRoutes(services.auth));
  // Hono's "/x/*" also matches "/x" itself: one registration per prefix, or auth runs twice
  // (a second session and user look-up on every request).
  app.use("/api/user/*", auth);
  mount("/api/user", () => routes.user().userRoutes(services.users, services.reviewSettings));
  mount("/api/user/alert-channels", () => routes.alerts().alertsRoutes(services.alerts));
  mount("/api/user/export/archive", () => routes.reviewMedia().exportArchiveRoute(services.users));
  mount("/api/user/disconnect-email", () => routes.imap().disconnectEmailRoute(services.mailbox));
  mount("/api/user/vine-settings", () => routes.vine().vineSettingsRoutes(services.vine));
  app.use("/api/admin/*", auth, requireAdmin(services.auth));
  app.route("/api/admin", adminRoutes(services.adminLogs));
  app.use("/api/notifications/*", auth);
  app.route("/api/notifications", notificationsRoutes(services.notifications));
  // The stream checks its own ?token= (EventSource cannot send an Authorization header).
  app.route("/api/events", eventsRoutes({ auth: services.auth, sse: services.sse }));
  app.use("/api/orders/*", auth);
  mount("/api/orders", () => routes.orders().ordersRoutes(services.orders, services.tracking));
  mount("/api/orders", () => routes.reviewEnhance().reviewEnhanceRoutes(services.enhance));
  mount("/api/orders", () => routes.reviewMedia().reviewMediaRoutes(services.media));
  // Media files check their own ?token= or bearer header (<img>/<video> cannot send a header).
  mount("/api/media", () =>
    routes.reviewMedia().mediaFileRoutes({ auth: services.auth, media: services.media }),
  );
  app.use("/api/tracking/*", auth);
  mount("/api/tracking", () => routes.tracking().trackingRoutes(services.tracking));
  app.use("/api/shipping/*", auth);
  mount("/api/shipping", () => routes.shipping().shippingRoutes());
  app.use("/api/config/*", auth);
  app.route("/api/config", configRoutes(services.publicConfig));
  app.use("/api/dashboard/*", auth);
  app.route("/api/dashboard", dashboardRoutes(services.dashboard));
  // The signed-in first screen drawn here (web/server-render.tsx); its own GETs answered in-process.
  app.use(FIRST_SCREEN_PATH, auth);
  mount(FIRST_SCREEN_PATH, () =>
    routes
      .firstScreen()
      .firstScreenRoutes(services.firstScreen, async (path, init) => app.request(path, init)),
  );
  app.use("/api/vine/*", auth);
  mount("/api/vine", () => routes.vine().vineRoutes(services.vine));

  app.use(IMPORT_PATH, auth);
  mount(IMPORT_PATH, () => routes.mailImport().mailImportRoutes({ imports: services.mailImport }));

  // The mailbox (docs/api.md); the import above has its own auth.
  const imapAuth: MiddlewareHandler<AppEnv> = (c, next) =>
    c.req.path === IMPORT_PATH ? next() : auth(c, next);
  app.use("/api/imap/*", imapAuth);
  mount("/api/imap/import-mode", () => routes.mailImport().importModeRoutes(services.mailIngest));
  mount("/api/imap", () => routes.imap().imapRoutes(services.mailbox, services.mailImport));

  const noRoute = (c: Context) =>
    c.json(errorBody("route_not_found", { method: c.req.method, path: c.req.path }), 404);
  app.all("/api/*", noRoute);
  app.all("/api", noRoute);
  app.use(serveWeb(config.distDir));
  app.notFound((c) => c.json(errorBody("not_found"), 404));

  app.onError((err, c) => {
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
      return c.json(err.body(), err.status);
    }
    if (err instanceof HTTPException) {
      // Hono's own refusals (none of our code throws them): the status in a sentence.
      return c.json(errorBody("request_refused", { status: err.status }), err.status);
    }
    // The disk is full (507) or another process holds the database (503): said in words.
    const fault = storageFault(err);
    if (fault) {
      (c.get("log") ?? log).warn({ err }, fault.message);
      if (isDiskFull(err)) services.health.noteDiskFull();
      for (const [k, v] of Object.entries(fault.headers ?? {})) c.header(k, v);
      return c.json(fault.body(), fault.status);
    }
    (c.get("log") ?? log).error({ err }, "unhandled error");
    return c.json(errorBody("server_error"), 500);
  });

  return app;
}
export type App = ReturnType<typeof createApp>;
