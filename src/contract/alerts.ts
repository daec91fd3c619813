/**
 * Alert channels: ntfy, webhooks (json / Discord / Slack) and Web Push, per user, fed
 * by the notifications the bell shows. `AlertEvent` is the documented list of event kinds a
 * notification can carry (`notify(userId, level, message, { event, orderId })`).
 */
import { z } from "zod";
import {
  ALERT_EVENTS,
  type AlertChannelType,
  type AlertEvent,
  WEBHOOK_FORMATS,
  type WebhookFormat,
} from "./alert-events.ts";
import { TRACKING_TIME_RE } from "./constants.ts";

export * from "./alert-events.ts";

const httpUrl = (what: string) =>
  z
    .string({ error: () => `${what} must be an http:// or https:// address` })
    .trim()
    .max(2000, `${what} is limited to 2000 characters`)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
      } catch {
        return false;
      }
    }, `${what} must be an http:// or https:// address`);

const name = z
  .string({ error: () => "The name must be text" })
  .trim()
  .max(60, "The name is limited to 60 characters");
const events = z
  .array(z.enum(ALERT_EVENTS, { error: () => `Choose events from: ${ALERT_EVENTS.join(", ")}` }), {
    error: () => "events must be a list of event names",
  })
  .max(ALERT_EVENTS.length);
const quietHours = z
  .object({
    start: z.string().regex(TRACKING_TIME_RE, "Quiet hours start must be a time like 22:00"),
    end: z.string().regex(TRACKING_TIME_RE, "Quiet hours end must be a time like 07:00"),
  })
  .refine((q) => q.start !== q.end, "Quiet hours must start and end at different times")
  .nullable();
const common = {
  name: name.optional(),
  events: events.optional(),
  quietHours: quietHours.optional(),
  enabled: z.boolean().optional(),
};

const secretText = (what: string, max = 500) =>
  z
    .string({ error: () => `${what} must be text` })
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(max, `${what} is limited to ${max} characters`);

/** A URL's credentials would be stored, shown and exported in clear. */
export const NTFY_URL_CREDENTIALS =
  "The ntfy server address cannot hold a user name, password or ?auth= token: put them in the access token or user name and password fields, which are stored encrypted";
const noUrlCredentials = (v: string) => {
  try {
    const u = new URL(v);
    return (
      !u.username &&
      !u.password &&
      ![...u.searchParams.keys()].some((k) => k.toLowerCase() === "auth")
    );
  } catch {
    return true; // httpUrl says what is wrong
  }
};
const ntfyFields = {
  serverUrl: httpUrl("The ntfy server").refine(noUrlCredentials, NTFY_URL_CREDENTIALS).optional(),
  topic: z
    .string({ error: () => "The topic must be text" })
    .trim()
    .min(1, "The topic cannot be empty")
    .max(64, "The topic is limited to 64 characters")
    .regex(/^[-_A-Za-z0-9]+$/, "The topic may contain only letters, digits, - and _"),
  // Header values: a line break would end the header (the channel then failed silently).
  token: secretText("The access token")
    .refine((v) => !/[\r\n]/.test(v), "The access token cannot contain line breaks")
    .nullable()
    .optional(),
  username: secretText("The user name", 200)
    .refine((v) => !/[\r\n]/.test(v), "The user name cannot contain line breaks")
    .nullable()
    .optional(),
  password: secretText("The password").nullable().optional(),
};
const webhookFields = {
  url: httpUrl("The webhook URL"),
  format: z.enum(WEBHOOK_FORMATS, { error: () => "format must be json, discord or slack" }),
};
const pushSubscription = z.object({
  endpoint: httpUrl("The push endpoint"),
  keys: z.object({
    p256dh: z.string().trim().min(1, "The subscription has no p256dh key").max(200),
    auth: z.string().trim().min(1, "The subscription has no auth key").max(100),
  }),
});
const webpushFields = { subscription: pushSubscription, deviceName: name.optional() };

/** POST /api/user/alert-channels. */
export const createAlertChannelBody = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("ntfy"), ...common, ...ntfyFields }),
    z.object({ type: z.literal("webhook"), ...common, ...webhookFields }),
    z.object({ type: z.literal("webpush"), ...common, ...webpushFields }),
  ],
  { error: () => "type must be ntfy, webhook or webpush" },
);
export type CreateAlertChannelBody = z.infer<typeof createAlertChannelBody>;

/**
 * PUT /api/user/alert-channels/{id}: only the fields sent change; a secret left out keeps its
 * stored value (the API shows it masked), null removes an optional one (ntfy token, password).
 */
export const updateAlertChannelBody = z.object({
  ...common,
  serverUrl: ntfyFields.serverUrl,
  topic: ntfyFields.topic.optional(),
  token: ntfyFields.token,
  username: ntfyFields.username,
  password: ntfyFields.password,
  url: webhookFields.url.optional(),
  format: webhookFields.format.optional(),
  subscription: pushSubscription.optional(),
  deviceName: webpushFields.deviceName,
});
export type UpdateAlertChannelBody = z.infer<typeof updateAlertChannelBody>;

/** One delivery (or failed try) of an alert, newest first on the channel. */
export type AlertDelivery = {
  id: number;
  at: string;
  event: AlertEvent | "test";
  status: "pending" | "sent" | "failed";
  /** What the far side said, or why nothing was sent. */
  result: string | null;
  attempts: number;
};

/** A channel as the API shows it: secrets masked. */
export type AlertChannel = {
  id: number;
  type: AlertChannelType;
  name: string;
  enabled: boolean;
  events: AlertEvent[];
  quietHours: { start: string; end: string } | null;
  /** Set when a day of failures paused the channel; saving it with enabled: true resumes it. */
  paused: { at: string; reason: string } | null;
  /** ntfy: serverUrl, topic (masked), auth ("none" | "token" | "password"), token (masked). */
  ntfy?: {
    serverUrl: string;
    topic: string;
    auth: "none" | "token" | "password";
    token?: string;
    username?: string;
  };
  /** webhook: the URL with its path masked, and the format. */
  webhook?: { url: string; format: WebhookFormat };
  /** webpush: the push service's host and the device name. */
  webpush?: { service: string; deviceName: string };
  deliveries: AlertDelivery[];
  createdAt: string;
};

/** POST /api/user/alert-channels/{id}/test. */
export type AlertTestResult = { ok: true } | { ok: false; error: string };

/** GET /api/user/alert-channels/webpush-key: the VAPID public key for PushManager.subscribe. */
export type WebPushKey = { publicKey: string };

/** The JSON webhook body ("json" format; Home Assistant's webhook trigger takes it). */
export type AlertWebhookJson = {
  event: AlertEvent | "test" | "summary";
  title: string;
  message: string;
  url: string | null;
  order: { number: string | null; product: string; status: string } | null;
  sentAt: string;
};
