/**
 * Alert channels: CRUD with ownership (another user's channel is a 404), secrets encrypted at rest
 * and masked in every answer (alerts.codec.ts), targets checked by outgoing.ts (400 for link-local
 * and metadata addresses, also after DNS). One webpush channel per device (the endpoint's hash).
 */

import {
  ADMIN_ALERT_EVENTS,
  ALERT_EVENTS,
  DEFAULT_NTFY_SERVER,
} from "../../contract/alert-events.ts";
import type { AlertChannelEvent } from "../../contract/events.ts";
import type {
  AlertChannel,
  AlertChannelType,
  AlertDelivery,
  AlertEvent,
  CreateAlertChannelBody,
  UpdateAlertChannelBody,
} from "../../contract/index.ts";
import type { AlertChannelRow, AlertOutboxRow } from "../../db/schema.ts";
import { storedText } from "../../i18n/text.ts";
import { badRequest, notFound } from "../../util/errors.ts";
import type { Secrets } from "../../util/secrets.ts";
import {
  checkPushKeys,
  encodeNtfy,
  encodePush,
  encodeWebhook,
  eventsOf,
  maskTopic,
  type NtfySecret,
  type NtfySettings,
  type PushSettings,
  type PushSubscription,
  secretOf,
  settingsOf,
  stored,
  TYPE_FIELDS,
  viewOf,
  type WebhookSettings,
} from "./alerts.codec.ts";
import { quietHoursOf } from "./alerts.quiet-hours.ts";
import type { AlertsRepo } from "./alerts.repo.ts";
import {
  checkTarget,
  OutgoingError,
  pushEndpointProblem,
  type Resolver,
  type TargetPolicy,
} from "./outgoing.ts";

export const MAX_CHANNELS_PER_USER = 20;
const DELIVERIES_SHOWN = 5;

/**
 * A refused address as the values of `error.alert_address_refused`: which sentence (`kind`, the
 * OutgoingError's `alerts.server.*` id) and its values, so the catalog says it in any language;
 * `reason` keeps the English words for API clients.
 */
function refusal(err: OutgoingError): Record<string, string> {
  const values: Record<string, string> = {
    kind: err.text.code.replace(/^alerts\.server\./, ""),
    host: "",
    address: "",
    why: "",
    reason: err.message,
  };
  for (const [key, value] of Object.entries(err.text.values ?? {})) values[key] = String(value);
  return values;
}

const ALL_TYPE_FIELDS = Object.values(TYPE_FIELDS).flat();

function toDelivery(r: AlertOutboxRow): AlertDelivery {
  return {
    id: r.id,
    at: r.finishedAt ?? r.createdAt,
    event: r.event as AlertDelivery["event"],
    status: r.status as AlertDelivery["status"],
    result: r.result,
    ...storedText(r.resultContent, "result"),
    attempts: r.attempts,
  };
}

export function createChannels(deps: {
  repo: AlertsRepo;
  secrets: Secrets;
  isAdmin: (userId: number) => boolean;
  policy: TargetPolicy;
  resolve?: Resolver;
  /** Tells the user's open tabs that their channels changed. */
  publishChange: (userId: number, type: AlertChannelEvent) => void;
  /** Wakes the sender (a resumed channel sends what waited). */
  kick: () => void;
}) {
  const { repo, secrets, publishChange } = deps;

  function toChannel(row: AlertChannelRow): AlertChannel {
    let secret: unknown = null;
    try {
      secret = secretOf(row, secrets);
    } catch {
      // key changed: shown without the secret parts; the test says what is wrong
    }
    return {
      id: row.id,
      type: row.type as AlertChannelType,
      name: row.name,
      enabled: row.enabled,
      events: eventsOf(row),
      quietHours: quietHoursOf(row),
      paused: row.pausedAt
        ? {
            at: row.pausedAt,
            reason: row.pausedReason ?? "",
            ...storedText(row.pausedReasonContent, "reason"),
          }
        : null,
      deliveries: repo.deliveries(row.id, DELIVERIES_SHOWN).map(toDelivery),
      createdAt: row.createdAt,
      ...viewOf(row, secret),
    };
  }

  function ownedRow(userId: number, id: number): AlertChannelRow {
    const row = repo.findChannel(userId, id);
    if (!row) throw notFound("alert_channel_not_found");
    return row;
  }

  function checkEvents(userId: number, events: AlertEvent[]): AlertEvent[] {
    if (!deps.isAdmin(userId) && events.some((e) => ADMIN_ALERT_EVENTS.includes(e))) {
      throw badRequest("alert_events_admin_only");
    }
    return [...new Set(events)];
  }
  const defaultEvents = (userId: number) =>
    ALERT_EVENTS.filter((e) => deps.isAdmin(userId) || !ADMIN_ALERT_EVENTS.includes(e));

  async function checkUrl(url: string) {
    try {
      await checkTarget(url, { resolve: deps.resolve, policy: deps.policy });
    } catch (err) {
      if (err instanceof OutgoingError) throw badRequest("alert_address_refused", refusal(err));
      throw err;
    }
  }

  /** Checks a push subscription's keys, then its endpoint, and encodes it. */
  async function checkedPush(subscription: PushSubscription, deviceName: string) {
    checkPushKeys(subscription.keys);
    const problem = pushEndpointProblem(subscription.endpoint, deps.policy);
    if (problem) throw badRequest("push_endpoint_refused");
    await checkUrl(subscription.endpoint);
    return encodePush(subscription, deviceName);
  }

  function limit(userId: number) {
    if (repo.listChannels(userId).length >= MAX_CHANNELS_PER_USER) {
      throw badRequest("alert_channels_limit", { max: MAX_CHANNELS_PER_USER });
    }
  }

  async function create(
    userId: number,
    body: CreateAlertChannelBody,
  ): Promise<{ channel: AlertChannel; created: boolean }> {
    const events = checkEvents(userId, body.events ?? defaultEvents(userId));
    const quiet = body.quietHours ?? null;
    const common = {
      userId,
      enabled: body.enabled ?? true,
      events: JSON.stringify(events),
      quietStart: quiet?.start ?? null,
      quietEnd: quiet?.end ?? null,
    };
    if (body.type === "webpush") {
      const deviceName = body.deviceName || body.name || "This device";
      const push = await checkedPush(body.subscription, deviceName);
      const columns = stored(push, secrets);
      const existing = repo.findDevice(userId, push.deviceKey);
      if (existing) {
        const row = repo.updateChannel(existing.id, {
          ...common,
          name: body.name || existing.name,
          ...columns,
          pausedAt: null,
          pausedReason: null,
          pausedReasonContent: null,
          failingSince: null,
        });
        publishChange(userId, "alert-channel.updated");
        return { channel: toChannel(row ?? existing), created: false };
      }
      limit(userId);
      const row = repo.insertChannel({
        ...common,
        type: "webpush",
        name: body.name || deviceName,
        ...columns,
        deviceKey: push.deviceKey,
      });
      publishChange(userId, "alert-channel.created");
      return { channel: toChannel(row), created: true };
    }
    limit(userId);
    let row: AlertChannelRow;
    if (body.type === "ntfy") {
      const serverUrl = (body.serverUrl ?? DEFAULT_NTFY_SERVER).replace(/\/+$/, "");
      const ntfy = encodeNtfy({ ...body, serverUrl });
      await checkUrl(serverUrl);
      row = repo.insertChannel({
        ...common,
        type: "ntfy",
        name: body.name || `ntfy: ${maskTopic(body.topic)}`,
        ...stored(ntfy, secrets),
        deviceKey: null,
      });
    } else {
      await checkUrl(body.url);
      const label = { json: "Webhook", discord: "Discord", slack: "Slack" }[body.format];
      row = repo.insertChannel({
        ...common,
        type: "webhook",
        name: body.name || `${label}: ${new URL(body.url).host}`,
        ...stored(encodeWebhook(body.url, body.format), secrets),
        deviceKey: null,
      });
    }
    publishChange(userId, "alert-channel.created");
    return { channel: toChannel(row), created: true };
  }

  async function update(
    userId: number,
    id: number,
    body: UpdateAlertChannelBody,
  ): Promise<AlertChannel> {
    const row = ownedRow(userId, id);
    const type = row.type as AlertChannelType;
    const foreign = ALL_TYPE_FIELDS.find(
      (f) => (body as Record<string, unknown>)[f] !== undefined && !TYPE_FIELDS[type].includes(f),
    );
    if (foreign) throw badRequest("alert_setting_foreign", { setting: foreign, type });
    const patch: Parameters<AlertsRepo["updateChannel"]>[1] = {};
    if (body.name !== undefined) patch.name = body.name || row.name;
    if (body.events !== undefined) patch.events = JSON.stringify(checkEvents(userId, body.events));
    if (body.quietHours !== undefined) {
      patch.quietStart = body.quietHours?.start ?? null;
      patch.quietEnd = body.quietHours?.end ?? null;
    }
    if (body.enabled !== undefined) {
      patch.enabled = body.enabled;
      // Saving a paused channel as enabled resumes it.
      if (body.enabled && row.pausedAt) {
        patch.pausedAt = null;
        patch.pausedReason = null;
        patch.pausedReasonContent = null;
        patch.failingSince = null;
      }
    }
    const settings = settingsOf(row);
    let secret: unknown;
    try {
      secret = secretOf(row, secrets);
    } catch {
      secret = {};
    }
    if (type === "ntfy") {
      const n = settings as NtfySettings;
      const s = secret as Partial<NtfySecret>;
      const serverUrl =
        body.serverUrl !== undefined ? body.serverUrl.replace(/\/+$/, "") : n.serverUrl;
      if (body.serverUrl !== undefined) await checkUrl(serverUrl);
      const next = {
        token: body.token === undefined ? s.token : body.token,
        username: body.username === undefined ? n.username : body.username,
        password: body.password === undefined ? s.password : body.password,
      };
      // Choosing one kind of access drops the other.
      if (body.token) next.username = next.password = null;
      if (body.username || body.password) next.token = null;
      const topic = body.topic !== undefined ? body.topic : (s.topic as string);
      Object.assign(patch, stored(encodeNtfy({ serverUrl, topic, ...next }), secrets));
    } else if (type === "webhook") {
      const w = settings as WebhookSettings;
      const format = body.format ?? w.format;
      if (body.url !== undefined) {
        await checkUrl(body.url);
        Object.assign(patch, stored(encodeWebhook(body.url, format), secrets));
      } else {
        patch.settings = JSON.stringify({ ...w, format } satisfies WebhookSettings);
      }
    } else {
      const p = settings as PushSettings;
      const deviceName =
        body.deviceName !== undefined ? body.deviceName || p.deviceName : p.deviceName;
      if (body.subscription !== undefined) {
        const push = await checkedPush(body.subscription, deviceName);
        Object.assign(patch, stored(push, secrets));
        patch.deviceKey = push.deviceKey;
      } else {
        patch.settings = JSON.stringify({ ...p, deviceName } satisfies PushSettings);
      }
    }
    const updated = repo.updateChannel(row.id, patch) ?? row;
    publishChange(userId, "alert-channel.updated");
    deps.kick();
    return toChannel(updated);
  }

  function remove(userId: number, id: number) {
    if (repo.deleteChannel(userId, id) === 0) throw notFound("alert_channel_not_found");
    publishChange(userId, "alert-channel.deleted");
    return { success: true as const, message: "Alert channel deleted" };
  }

  return {
    list: (userId: number): AlertChannel[] => repo.listChannels(userId).map(toChannel),
    get: (userId: number, id: number): AlertChannel => toChannel(ownedRow(userId, id)),
    ownedRow,
    create,
    update,
    remove,
  };
}
export type Channels = ReturnType<typeof createChannels>;
