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
import { type FieldName, says } from "./errors.ts";
import type { TextValue } from "./text.ts";

export * from "./alert-events.ts";

const httpUrl = (field: FieldName) =>
  z
    .string({ error: () => says("field_http_address", { field }) })
    .trim()
    .max(2000, says("field_limited", { field, max: 2000 }))
    .refine(
      (v) => {
        try {
          const u = new URL(v);
          return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
        } catch {
          return false;
        }
      },
      says("field_http_address", { field }),
    );

const name = z
  .string({ error: () => says("field_not_text", { field: "channelName" }) })
  .trim()
  .max(60, says("field_limited", { field: "channelName", max: 60 }));
const events = z
  .array(
    z.enum(ALERT_EVENTS, {
      error: () => says("alert_events_choose", { events: ALERT_EVENTS.join(", ") }),
    }),
    { error: () => says("alert_events_list") },
  )
  .max(ALERT_EVENTS.length);
const quietHours = z
  .object({
    start: z.string().regex(TRACKING_TIME_RE, says("quiet_hours_start")),
    end: z.string().regex(TRACKING_TIME_RE, says("quiet_hours_end")),
  })
  .refine((q) => q.start !== q.end, says("quiet_hours_same"))
  .nullable();
const common = {
  name: name.optional(),
  events: events.optional(),
  quietHours: quietHours.optional(),
  enabled: z.boolean().optional(),
};

const secretText = (field: FieldName, max = 500) =>
  z
    .string({ error: () => says("field_not_text", { field }) })
    .trim()
    .min(1, says("field_empty", { field }))
    .max(max, says("field_limited", { field, max }));

/** A URL's credentials would be stored, shown and exported in clear (`ntfy_url_credentials`). */
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
  serverUrl: httpUrl("ntfyServer")
    .refine(noUrlCredentials, says("ntfy_url_credentials"))
    .optional(),
  topic: z
    .string({ error: () => says("field_not_text", { field: "ntfyTopic" }) })
    .trim()
    .min(1, says("field_empty", { field: "ntfyTopic" }))
    .max(64, says("field_limited", { field: "ntfyTopic", max: 64 }))
    .regex(/^[-_A-Za-z0-9]+$/, says("ntfy_topic_characters")),
  // Header values: a line break would end the header (the channel then failed silently).
  token: secretText("ntfyToken")
    .refine((v) => !/[\r\n]/.test(v), says("field_line_breaks", { field: "ntfyToken" }))
    .nullable()
    .optional(),
  username: secretText("ntfyUsername", 200)
    .refine((v) => !/[\r\n]/.test(v), says("field_line_breaks", { field: "ntfyUsername" }))
    .nullable()
    .optional(),
  password: secretText("ntfyPassword").nullable().optional(),
};
const webhookFields = {
  url: httpUrl("webhookUrl"),
  format: z.enum(WEBHOOK_FORMATS, { error: () => says("webhook_format") }),
};
const pushSubscription = z.object({
  endpoint: httpUrl("pushEndpoint"),
  keys: z.object({
    p256dh: z
      .string()
      .trim()
      .min(1, says("push_key_missing", { key: "p256dh" }))
      .max(200),
    auth: z
      .string()
      .trim()
      .min(1, says("push_key_missing", { key: "auth" }))
      .max(100),
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
  { error: () => says("alert_channel_type") },
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
  /** What the far side said, or why nothing was sent (English). */
  result: string | null;
  /** `result` as a catalog id and values (src/contract/text.ts); absent on rows from before them. */
  resultCode?: string;
  resultValues?: Record<string, TextValue>;
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
  /**
   * Set when a day of failures paused the channel; saving it with enabled: true resumes it.
   * `reason` is English; `reasonCode` + `reasonValues` the same as a catalog id and values.
   */
  paused: {
    at: string;
    reason: string;
    reasonCode?: string;
    reasonValues?: Record<string, TextValue>;
  } | null;
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
export type AlertTestResult =
  | { ok: true }
  | {
      ok: false;
      /** What the far side answered (English), and its catalog id and values (src/contract/text.ts). */
      error: string;
      errorCode?: string;
      errorValues?: Record<string, TextValue>;
    };

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
