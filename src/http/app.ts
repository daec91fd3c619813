/** The HTTP application: middleware, /api routes, error mapping, and the web app with SPA fallback. */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../log.ts";
import type { Services } from "../services.ts";
import { AppError, errorBody, isDiskFull, storageFault } from "../util/errors.ts";
import { requireAdmin, requireAuth } from "./middleware/auth.ts";
import { dbWriteGate } from "./middleware/db-write-gate.ts";
import type { Drain } from "./middleware/drain.ts";
import { requestLog } from "./middleware/request-log.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { serveWeb } from "./middleware/static.ts";
import { adminRoutes } from "./routes/admin.routes.ts";
import { alertsRoutes } from "./routes/alerts.routes.ts";
import { authRoutes } from "./routes/auth.routes.ts";
import { configRoutes } from "./routes/config.routes.ts";
import { dashboardRoutes } from "./routes/dashboard.routes.ts";
import { eventsRoutes } from "./routes/events.routes.ts";
import { healthRoutes } from "./routes/health.routes.ts";
import { disconnectEmailRoute, imapRoutes } from "./routes/imap.routes.ts";
import { IMPORT_PATH, importModeRoutes, mailImportRoutes } from "./routes/mail-import.routes.ts";
import { notificationsRoutes } from "./routes/notifications.routes.ts";
import { oauthRoutes } from "./routes/oauth.routes.ts";
import { ordersRoutes } from "./routes/orders.routes.ts";
import { reviewEnhanceRoutes } from "./routes/review-enhance.routes.ts";
import {
  exportArchiveRoute,
  isMediaUploadPath,
  mediaFileRoutes,
  reviewMediaRoutes,
} from "./routes/review-media.routes.ts";
import { shippingRoutes } from "./routes/shipping.routes.ts";
import { trackingRoutes } from "./routes/tracking.routes.ts";
import { userRoutes } from "./routes/user.routes.ts";
import { vineRoutes, vineSettingsRoutes } from "./routes/vine.routes.ts";
import type { AppEnv } from "./types.ts";

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
  app.route("/api/health", healthRoutes(services.health, new Date()));
  // Gmail OAuth: GET /api/auth/google needs a token (checked in the route); its /callback is a
  // redirect from Google without one (the state names the user). Before the accounts routes.
  app.route("/api/auth/google", oauthRoutes({ oauth: services.gmailOAuth, requireAuth: auth }));
  app.route("/api/auth", authRoutes(services.auth));
  // Hono's "/x/*" also matches "/x" itself: one registration per prefix, or auth runs twice
  // (a second session and user look-up on every request).
  app.use("/api/user/*", auth);
  app.route("/api/user", userRoutes(services.users, services.reviewSettings));
  app.route("/api/user/alert-channels", alertsRoutes(services.alerts));
  app.route("/api/user/export/archive", exportArchiveRoute(services.users));
  app.route("/api/user/disconnect-email", disconnectEmailRoute(services.mailbox));
  app.route("/api/user/vine-settings", vineSettingsRoutes(services.vine));
  app.use("/api/admin/*", auth, requireAdmin(services.auth));
  app.route("/api/admin", adminRoutes(services.adminLogs));
  app.use("/api/notifications/*", auth);
  app.route("/api/notifications", notificationsRoutes(services.notifications));
  // The stream checks its own ?token= (EventSource cannot send an Authorization header).
  app.route("/api/events", eventsRoutes({ auth: services.auth, sse: services.sse }));
  app.use("/api/orders/*", auth);
  app.route("/api/orders", ordersRoutes(services.orders, services.tracking));
  app.route("/api/orders", reviewEnhanceRoutes(services.enhance));
  app.route("/api/orders", reviewMediaRoutes(services.media));
  // Media files check their own ?token= or bearer header (<img>/<video> cannot send a header).
  app.route("/api/media", mediaFileRoutes({ auth: services.auth, media: services.media }));
  app.use("/api/tracking/*", auth);
  app.route("/api/tracking", trackingRoutes(services.tracking));
  app.use("/api/shipping/*", auth);
  app.route("/api/shipping", shippingRoutes());
  app.use("/api/config/*", auth);
  app.route("/api/config", configRoutes(services.publicConfig));
  app.use("/api/dashboard/*", auth);
  app.route("/api/dashboard", dashboardRoutes(services.dashboard));
  app.use("/api/vine/*", auth);
  app.route("/api/vine", vineRoutes(services.vine));

  app.use(IMPORT_PATH, auth);
  app.route(IMPORT_PATH, mailImportRoutes({ imports: services.mailImport }));

  // The mailbox (docs/api.md); the import above has its own auth.
  const imapAuth: MiddlewareHandler<AppEnv> = (c, next) =>
    c.req.path === IMPORT_PATH ? next() : auth(c, next);
  app.use("/api/imap/*", imapAuth);
  app.route("/api/imap/import-mode", importModeRoutes(services.mailIngest));
  app.route("/api/imap", imapRoutes(services.mailbox, services.mailImport));

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
