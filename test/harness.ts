/**
 * API test harness: a real SQLite file in a fresh temp folder, the real services and the real Hono
 * app, called through app.request (no network). One harness per test file or per test.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Config, loadConfig } from "../src/config.ts";
import { closeDatabase, type Db, openDatabase } from "../src/db/client.ts";
import { createApp } from "../src/http/app.ts";
import { type AppLogger, createLogger } from "../src/log.ts";
import { createServices, type Services } from "../src/services.ts";

export type Harness = {
  config: Config;
  db: Db;
  services: Services;
  logger: AppLogger;
  app: ReturnType<typeof createApp>;
  /** Sends a request; `body` objects are sent as JSON, `token` as a bearer header. */
  req: (
    method: string,
    url: string,
    opts?: {
      body?: unknown;
      token?: string | null;
      headers?: Record<string, string>;
      raw?: BodyInit;
    },
  ) => Promise<Response>;
  /** Registers a user and returns their token and id. */
  register: (
    email?: string,
    password?: string,
    displayname?: string,
  ) => Promise<{ token: string; userid: number; email: string; password: string }>;
  close: () => Promise<void>;
};

let counter = 0;

/** argon2id at 4 MiB and one pass: the real algorithm, about 40 times quicker than the default. */
export const TEST_PASSWORD_COST = { memoryCost: 4096, timeCost: 1 };

/** Overrides for the services (the IMAP harness injects its ingest port and short timings). */
export type ServiceOverrides = Parameters<typeof createServices>[3];

export function createHarness(
  env: Record<string, string> = {},
  overrides?: ServiceOverrides,
): Harness {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-test-"));
  // Tests register many users without a client address: the sign-up limit per address is raised
  // here (its own test sets it back to the default with SIGNUP_HOURLY_LIMIT: "").
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    SIGNUP_HOURLY_LIMIT: "100000",
    ...env,
  });
  const logger = createLogger({
    level: config.logLevel,
    logDir: config.logDir,
    retentionDays: config.logRetentionDays,
    stdout: false,
  });
  const db = openDatabase(config.dbFile, config.migrationsDir);
  // Password hashes at a cheap argon2id cost: the suite signs up hundreds of users, and Bun's
  // default cost (64 MiB, 2 passes) made those tests run out of time on a busy machine.
  const services = createServices(config, db, logger, {
    passwordCost: TEST_PASSWORD_COST,
    ...overrides,
  });
  const app = createApp({ config, db, log: logger.log, services });

  const req: Harness["req"] = (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: BodyInit | undefined = opts.raw;
    if (opts.body !== undefined) {
      headers["content-type"] ??= "application/json";
      body = JSON.stringify(opts.body);
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    return Promise.resolve(app.request(url, { method, headers, body }));
  };

  return {
    config,
    db,
    services,
    logger,
    app,
    req,
    async register(email, password = "secret1", displayname = "Test User") {
      const e = email ?? `user${++counter}-${Date.now()}@example.com`;
      const res = await req("POST", "/api/auth/register", {
        body: { email: e, password, displayname },
      });
      if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
      const json = (await res.json()) as { token: string; user: { userid: number } };
      return { token: json.token, userid: json.user.userid, email: e, password };
    },
    async close() {
      await services.alerts.stop();
      await services.mailbox.stopAll();
      closeDatabase(db);
      await logger.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
