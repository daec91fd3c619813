/**
 * The one place that knows how a channel is stored: per type its settings (in clear), its secret
 * (encrypted with lib/secrets), how the API shows them (secrets masked) and where an alert goes
 * (the sender's target); and the events it chose. Create and update both encode through here.
 */
import crypto from "node:crypto";
import { ALERT_EVENTS } from "../../contract/alert-events.ts";
import type {
  AlertChannel,
  AlertChannelType,
  AlertEvent,
  WebhookFormat,
} from "../../contract/index.ts";
import type { AlertChannelRow } from "../../db/schema.ts";
import { badRequest } from "../../util/errors.ts";
import type { Secrets } from "../../util/secrets.ts";
import type { AlertTarget } from "./senders.ts";

export type NtfySettings = {
  serverUrl: string;
  auth: "none" | "token" | "password";
  username?: string;
};
export type WebhookSettings = { format: WebhookFormat; origin: string };
export type PushSettings = { deviceName: string; service: string };
export type NtfySecret = { topic: string; token?: string; password?: string };
export type WebhookSecret = { url: string };
export type PushSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };
export type PushSecret = { subscription: PushSubscription };

type Settings = NtfySettings | WebhookSettings | PushSettings;
type Encoded<S extends Settings, K> = { settings: S; secret: K };

/** The fields of an ntfy channel as a user gives them (null: not set). */
export type NtfyFields = {
  serverUrl: string;
  topic: string;
  token?: string | null;
  username?: string | null;
  password?: string | null;
};

/** What a channel type's view in the API holds (AlertChannel's `ntfy`, `webhook`, `webpush`). */
type ChannelView = Pick<AlertChannel, "ntfy" | "webhook" | "webpush">;

export const mask = (s: string) => (s.length >= 12 ? `••••${s.slice(-4)}` : "••••");
export const maskTopic = (s: string) => `${s.slice(0, Math.min(3, s.length - 1))}••••`;
const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

/** A user gives either a token or a user name with a password, or nothing. */
export function checkNtfyAuth(s: {
  token?: string | null;
  username?: string | null;
  password?: string | null;
}) {
  if (s.token && (s.username || s.password)) {
    throw badRequest("ntfy_auth_both");
  }
  if (Boolean(s.username) !== Boolean(s.password)) {
    throw badRequest("ntfy_auth_half");
  }
}

/** Checks the access (checkNtfyAuth) and splits the fields into settings and secret. */
export function encodeNtfy(f: NtfyFields): Encoded<NtfySettings, NtfySecret> {
  checkNtfyAuth(f);
  const settings: NtfySettings = {
    serverUrl: f.serverUrl,
    auth: f.token ? "token" : f.username ? "password" : "none",
    ...(f.username ? { username: f.username } : {}),
  };
  const secret: NtfySecret = {
    topic: f.topic,
    ...(f.token ? { token: f.token } : {}),
    ...(f.password ? { password: f.password } : {}),
  };
  return { settings, secret };
}

/** The address's origin is kept in clear (shown as "origin/••••"); the whole address is secret. */
export function encodeWebhook(url: string, format: WebhookFormat) {
  return {
    settings: { format, origin: new URL(url).origin } satisfies WebhookSettings,
    secret: { url } satisfies WebhookSecret,
  };
}

/** 400 unless the subscription's keys are a P-256 public key and a 16-byte secret. */
export function checkPushKeys(keys: { p256dh: string; auth: string }) {
  const b64 = /^[A-Za-z0-9_-]+={0,2}$/;
  const valid =
    b64.test(keys.p256dh) &&
    b64.test(keys.auth) &&
    Buffer.from(keys.p256dh, "base64url").length === 65 &&
    Buffer.from(keys.p256dh, "base64url")[0] === 4 &&
    Buffer.from(keys.auth, "base64url").length === 16;
  if (!valid) {
    throw badRequest("push_keys_invalid");
  }
}

/**
 * A checked subscription (checkPushKeys, and its endpoint by outgoing.ts); `deviceKey` (the
 * endpoint's hash) makes one channel per device.
 */
export function encodePush(
  subscription: PushSubscription,
  deviceName: string,
): Encoded<PushSettings, PushSecret> & { deviceKey: string } {
  return {
    settings: { deviceName, service: new URL(subscription.endpoint).host },
    secret: { subscription },
    deviceKey: sha256(subscription.endpoint),
  };
}

/** The stored columns of an encoded channel: settings as JSON, the secret encrypted. */
export const stored = (e: { settings: Settings; secret: unknown }, secrets: Secrets) => ({
  settings: JSON.stringify(e.settings),
  secret: secrets.encrypt(JSON.stringify(e.secret)),
});

/** The events a channel chose that still exist. */
export const eventsOf = (row: Pick<AlertChannelRow, "events">) =>
  (JSON.parse(row.events) as string[]).filter((e): e is AlertEvent =>
    (ALERT_EVENTS as readonly string[]).includes(e),
  );

export const settingsOf = (row: Pick<AlertChannelRow, "settings">) =>
  JSON.parse(row.settings) as Settings;
/** Throws when the server's secret key changed since the channel was saved. */
export const secretOf = (row: Pick<AlertChannelRow, "secret">, secrets: Secrets) =>
  JSON.parse(secrets.decrypt(row.secret)) as unknown;

/** A saved ntfy address without a user name, password or ?auth= (channels saved before the rule). */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password && ![...u.searchParams.keys()].some(isAuthParam)) return url;
    u.username = "";
    u.password = "";
    for (const k of [...u.searchParams.keys()]) if (isAuthParam(k)) u.searchParams.delete(k);
    return u.toString().replace(/\/+$/, "");
  } catch {
    return "••••";
  }
}
const isAuthParam = (k: string) => k.toLowerCase() === "auth";

/** The type's part of the API's channel, secrets masked (`secret` null: it cannot be read). */
export function viewOf(row: AlertChannelRow, secret: unknown): ChannelView {
  const s = settingsOf(row);
  if (row.type === "ntfy") {
    const n = s as NtfySettings;
    const sec = (secret ?? {}) as Partial<NtfySecret>;
    return {
      ntfy: {
        serverUrl: withoutCredentials(n.serverUrl),
        topic: sec.topic ? maskTopic(sec.topic) : "••••",
        auth: n.auth,
        ...(n.auth === "token" ? { token: sec.token ? mask(sec.token) : "••••" } : {}),
        ...(n.auth === "password" && n.username ? { username: n.username } : {}),
      },
    };
  }
  if (row.type === "webhook") {
    const w = s as WebhookSettings;
    return { webhook: { url: `${w.origin}/••••`, format: w.format } };
  }
  const p = s as PushSettings;
  return { webpush: { service: p.service, deviceName: p.deviceName } };
}

/** Where the channel's alerts go; throws when the secret cannot be read. */
export function targetOf(row: AlertChannelRow, secrets: Secrets): AlertTarget {
  const s = settingsOf(row);
  const sec = secretOf(row, secrets);
  if (row.type === "ntfy") {
    const n = s as NtfySettings;
    const k = sec as NtfySecret;
    return {
      type: "ntfy",
      serverUrl: n.serverUrl,
      topic: k.topic,
      token: k.token,
      username: n.username,
      password: k.password,
    };
  }
  if (row.type === "webhook") {
    return {
      type: "webhook",
      url: (sec as WebhookSecret).url,
      format: (s as WebhookSettings).format,
    };
  }
  return { type: "webpush", subscription: (sec as PushSecret).subscription };
}

/** The fields an update may carry, per type (another type's field is a 400). */
export const TYPE_FIELDS: Record<AlertChannelType, readonly string[]> = {
  ntfy: ["serverUrl", "topic", "token", "username", "password"],
  webhook: ["url", "format"],
  webpush: ["subscription", "deviceName"],
};
