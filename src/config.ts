/**
 * Configuration: the environment is parsed once, here, into a frozen object. Nothing else in the
 * server reads process.env. An invalid value stops the start with one line naming the variable.
 */

import path from "node:path";
import * as z from "zod/mini";

// zod/mini, not zod: the full build costs several megabytes resident for as long as the server
// runs, and the request schemas that need it load with the first request of their routes
// (src/http/app.ts). Every variable below is a string or absent, read by one function.
type Issues = { issues: Array<{ code: "custom"; message: string; input: unknown }> };

const envVar = <T>(read: (v: string | undefined, ctx: EnvContext) => T) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined, payload) =>
      read(v, {
        addIssue: (issue) => (payload as unknown as Issues).issues.push({ ...issue, input: v }),
      }),
    ),
  );
type EnvContext = { addIssue: (issue: { code: "custom"; message: string }) => void };

const bool = (name: string, fallback: boolean) =>
  envVar((v, ctx) => {
    if (v === undefined || v.trim() === "") return fallback;
    const s = v.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(s)) return true;
    if (["0", "false", "no", "off"].includes(s)) return false;
    ctx.addIssue({ code: "custom", message: `${name} must be true or false (got "${v}")` });
    return z.NEVER;
  });

const int = (name: string, fallback: number, min: number, max: number) =>
  envVar((v, ctx) => {
    if (v === undefined || v.trim() === "") return fallback;
    const s = v.trim();
    const n = Number(s);
    if (!/^\d+$/.test(s) || n < min || n > max) {
      ctx.addIssue({
        code: "custom",
        message: `${name} must be a whole number from ${min} to ${max} (got "${v}")`,
      });
      return z.NEVER;
    }
    return n;
  });

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** An absolute http(s) address; `fallback` when unset. Trailing slashes are dropped. */
const httpUrl = <F extends string | null>(name: string, fallback: F) =>
  envVar((v, ctx): string | F => {
    const s = v?.trim() ?? "";
    if (s === "") return fallback;
    let u: URL | null = null;
    try {
      u = new URL(s);
    } catch {
      u = null;
    }
    if (!u || (u.protocol !== "http:" && u.protocol !== "https:") || u.search || u.hash) {
      ctx.addIssue({
        code: "custom",
        message: `${name} must be an http:// or https:// address without ? or # (got "${v}")`,
      });
      return z.NEVER;
    }
    return s.replace(/\/+$/, "");
  });

const optionalText = envVar((v) => v?.trim() || null);

const envSchema = z.object({
  PORT: int("PORT", 3000, 1, 65535),
  HOST: envVar((v) => v?.trim() || "0.0.0.0"),
  DATA_DIR: envVar((v) => path.resolve(v?.trim() || "./data")),
  LOG_LEVEL: envVar((v, ctx) => {
    const s = (v?.trim() || "info").toLowerCase();
    if (!(LOG_LEVELS as readonly string[]).includes(s)) {
      ctx.addIssue({
        code: "custom",
        message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${v}")`,
      });
      return z.NEVER;
    }
    return s as (typeof LOG_LEVELS)[number];
  }),
  LOG_RETENTION_DAYS: int("LOG_RETENTION_DAYS", 14, 1, 3650),
  ALLOW_REGISTRATION: bool("ALLOW_REGISTRATION", true),
  SESSION_DAYS: int("SESSION_DAYS", 30, 1, 3650),
  TRUST_PROXY: bool("TRUST_PROXY", false),
  SECRET_KEY: envVar((v, ctx) => {
    const s = v?.trim() ?? "";
    if (s === "") return null;
    const key = /^[A-Za-z0-9+/]+={0,2}$/.test(s) ? Buffer.from(s, "base64") : null;
    if (key?.length !== 32) {
      ctx.addIssue({
        code: "custom",
        message:
          "SECRET_KEY must be 32 bytes written in base64 (make one with: openssl rand -base64 32)",
      });
      return z.NEVER;
    }
    return key;
  }),
  GMAIL_IMAP_HOST: envVar((v) => v?.trim() || "imap.gmail.com"),
  GMAIL_IMAP_PORT: int("GMAIL_IMAP_PORT", 993, 1, 65535),
  GMAIL_IMAP_TLS: bool("GMAIL_IMAP_TLS", true),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  PUBLIC_URL: httpUrl("PUBLIC_URL", null),
  GOOGLE_AUTH_URL: httpUrl("GOOGLE_AUTH_URL", "https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: httpUrl("GOOGLE_TOKEN_URL", "https://oauth2.googleapis.com/token"),
  GOOGLE_USERINFO_URL: httpUrl(
    "GOOGLE_USERINFO_URL",
    "https://openidconnect.googleapis.com/v1/userinfo",
  ),
  // Carrier tracking (src/tracking): each carrier's OAuth client credentials and base URL.
  UPS_CLIENT_ID: optionalText,
  UPS_CLIENT_SECRET: optionalText,
  UPS_BASE_URL: httpUrl("UPS_BASE_URL", "https://onlinetools.ups.com"),
  FEDEX_CLIENT_ID: optionalText,
  FEDEX_CLIENT_SECRET: optionalText,
  FEDEX_BASE_URL: httpUrl("FEDEX_BASE_URL", "https://apis.fedex.com"),
  USPS_CLIENT_ID: optionalText,
  USPS_CLIENT_SECRET: optionalText,
  USPS_BASE_URL: httpUrl("USPS_BASE_URL", "https://apis.usps.com"),
  /** USPS grants about 60 tracking calls an hour by default. */
  USPS_HOURLY_LIMIT: int("USPS_HOURLY_LIMIT", 60, 1, 100_000),
  /** Ship24 (aggregator) for carriers without their own credentials. */
  SHIP24_API_KEY: optionalText,
  SHIP24_BASE_URL: httpUrl("SHIP24_BASE_URL", "https://api.ship24.com"),
  /** One carrier call gives up after this long (ms). */
  TRACKING_TIMEOUT_MS: int("TRACKING_TIMEOUT_MS", 15_000, 100, 300_000),
  // AI help with reviews: any OpenAI-compatible server (OpenAI, Ollama, LM Studio...).
  OPENAI_BASE_URL: httpUrl("OPENAI_BASE_URL", null),
  OPENAI_API_KEY: optionalText,
  OPENAI_MODEL: envVar((v) => v?.trim() || "gpt-4o-mini"),
  /** The model's answer is awaited this long (ms) before the request answers 408. */
  OPENAI_TIMEOUT_MS: int("OPENAI_TIMEOUT_MS", 60_000, 1000, 600_000),
  /** Enhancements each user may ask for per hour (429 with Retry-After beyond it). */
  AI_HOURLY_LIMIT: int("AI_HOURLY_LIMIT", 30, 1, 10_000),
  /** Alert channels may reach loopback and the server's own addresses (off: a user could read them). */
  ALERTS_ALLOW_LOOPBACK: bool("ALERTS_ALLOW_LOOPBACK", false),
  /** The Web Push (VAPID) contact when PUBLIC_URL is not a public https address. */
  WEB_PUSH_CONTACT: envVar((v, ctx) => {
    const s = v?.trim() ?? "";
    if (s === "") return null;
    if (!/^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) && !/^https:\/\/[^\s/]+\.[^\s]+$/.test(s)) {
      ctx.addIssue({
        code: "custom",
        message: `WEB_PUSH_CONTACT must be a mailto: or https:// address (got "${v}")`,
      });
      return z.NEVER;
    }
    return s;
  }),
  /** Accounts one address may create per hour (429 with Retry-After beyond it). */
  SIGNUP_HOURLY_LIMIT: int("SIGNUP_HOURLY_LIMIT", 3, 1, 100_000),
  /** Below this much free space (MB) in DATA_DIR, /api/health answers 503 and the admin is told. */
  DISK_FREE_MIN_MB: int("DISK_FREE_MIN_MB", 200, 0, 10_000_000),
  /** On SIGTERM, uploads, imports and backfill batches in flight get this long (s) to finish. */
  SHUTDOWN_GRACE_SECONDS: int("SHUTDOWN_GRACE_SECONDS", 25, 0, 3600),
});

export type Config = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  dbFile: string;
  logDir: string;
  mediaDir: string;
  distDir: string;
  migrationsDir: string;
  logLevel: (typeof LOG_LEVELS)[number];
  logRetentionDays: number;
  allowRegistration: boolean;
  sessionDays: number;
  trustProxy: boolean;
  /** AES-256 key for secrets at rest; null means the key file in the data folder is used. */
  secretKey: Buffer | null;
  gmailImap: Readonly<{ host: string; port: number; tls: boolean }>;
  /** The app's public address (PUBLIC_URL, no trailing slash); null when unset. */
  publicUrl: string | null;
  /** Gmail with OAuth: the admin's Google client (null when unset) and Google's endpoints. */
  google: Readonly<{
    clientId: string | null;
    clientSecret: string | null;
    authUrl: string;
    tokenUrl: string;
    userinfoUrl: string;
  }>;
  /** Carrier APIs: credentials (null when unset) and base URLs (tests point them at fakes). */
  carriers: Readonly<{
    ups: CarrierCredentials;
    fedex: CarrierCredentials;
    usps: CarrierCredentials & { hourlyLimit: number };
    ship24: Readonly<{ apiKey: string | null; baseUrl: string }>;
    timeoutMs: number;
  }>;
  /**
   * OpenAI-compatible server. Configured when OPENAI_BASE_URL or OPENAI_API_KEY is set (a key
   * alone means api.openai.com; a base URL alone suits Ollama, which needs no key).
   */
  ai: Readonly<{
    baseUrl: string | null;
    apiKey: string | null;
    model: string;
    timeoutMs: number;
    hourlyLimit: number;
  }>;
  /** DISK_FREE_MIN_MB: the free space below which health fails and the admin is notified. */
  diskFreeMinMb: number;
  /** SHUTDOWN_GRACE_SECONDS: how long work in flight may take after SIGTERM. */
  shutdownGraceSeconds: number;
  /** ALERTS_ALLOW_LOOPBACK: alert channels may reach loopback and this server's own addresses. */
  alertsAllowLoopback: boolean;
  /** WEB_PUSH_CONTACT (mailto: or https:), or null. */
  webPushContact: string | null;
  /** SIGNUP_HOURLY_LIMIT: accounts one client address may create per hour. */
  signupHourlyLimit: number;
}>;

export type CarrierCredentials = Readonly<{
  clientId: string | null;
  clientSecret: string | null;
  baseUrl: string;
}>;

export class ConfigError extends Error {}

const ROOT = path.resolve(import.meta.dir, "..");

/** Parses the given environment; throws ConfigError with one line naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "configuration");
    const msg = issue?.message ?? "is invalid";
    throw new ConfigError(
      msg.startsWith(name) ? `Invalid configuration: ${msg}` : `Invalid ${name}: ${msg}`,
    );
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    dbFile: path.join(e.DATA_DIR, "app.db"),
    logDir: path.join(e.DATA_DIR, "logs"),
    mediaDir: path.join(e.DATA_DIR, "media"),
    distDir: path.join(ROOT, "dist"),
    migrationsDir: path.join(ROOT, "migrations"),
    logLevel: e.LOG_LEVEL,
    logRetentionDays: e.LOG_RETENTION_DAYS,
    allowRegistration: e.ALLOW_REGISTRATION,
    sessionDays: e.SESSION_DAYS,
    trustProxy: e.TRUST_PROXY,
    secretKey: e.SECRET_KEY,
    gmailImap: Object.freeze({
      host: e.GMAIL_IMAP_HOST,
      port: e.GMAIL_IMAP_PORT,
      tls: e.GMAIL_IMAP_TLS,
    }),
    publicUrl: e.PUBLIC_URL,
    google: Object.freeze({
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
      authUrl: e.GOOGLE_AUTH_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
      userinfoUrl: e.GOOGLE_USERINFO_URL,
    }),
    carriers: Object.freeze({
      ups: Object.freeze({
        clientId: e.UPS_CLIENT_ID,
        clientSecret: e.UPS_CLIENT_SECRET,
        baseUrl: e.UPS_BASE_URL,
      }),
      fedex: Object.freeze({
        clientId: e.FEDEX_CLIENT_ID,
        clientSecret: e.FEDEX_CLIENT_SECRET,
        baseUrl: e.FEDEX_BASE_URL,
      }),
      usps: Object.freeze({
        clientId: e.USPS_CLIENT_ID,
        clientSecret: e.USPS_CLIENT_SECRET,
        baseUrl: e.USPS_BASE_URL,
        hourlyLimit: e.USPS_HOURLY_LIMIT,
      }),
      ship24: Object.freeze({ apiKey: e.SHIP24_API_KEY, baseUrl: e.SHIP24_BASE_URL }),
      timeoutMs: e.TRACKING_TIMEOUT_MS,
    }),
    ai: Object.freeze({
      baseUrl: e.OPENAI_BASE_URL,
      apiKey: e.OPENAI_API_KEY,
      model: e.OPENAI_MODEL,
      timeoutMs: e.OPENAI_TIMEOUT_MS,
      hourlyLimit: e.AI_HOURLY_LIMIT,
    }),
    diskFreeMinMb: e.DISK_FREE_MIN_MB,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    alertsAllowLoopback: e.ALERTS_ALLOW_LOOPBACK,
    webPushContact: e.WEB_PUSH_CONTACT,
    signupHourlyLimit: e.SIGNUP_HOURLY_LIMIT,
  });
}
