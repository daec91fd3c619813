/**
 * Alert channels and their outbox.
 *
 * Channels: CRUD with ownership (another user's channel is a 404), secrets encrypted at rest
 * (lib/secrets) and masked in every answer, targets checked by outgoing.ts (400 for link-local and
 * metadata addresses, also after DNS). One webpush channel per device (the endpoint's hash).
 *
 * Alerts: `enqueue` is called by the notifications service after it stored a notification that
 * carries an event kind. It writes one outbox row per channel that chose the event (inside the
 * caller's transaction when there is one) and only wakes the sender: sending never delays the
 * event. The sender (one loop, `start`/`stop`) delivers due rows in the background; on a timeout,
 * 429 or 5xx a row is tried again after RETRY_DELAYS_MS (or the far side's Retry-After), at most
 * MAX_ATTEMPTS times; a 4xx other than 429 is not retried. A channel that has failed for a day is
 * paused and its user told in the bell. Rows are in the database until sent, so a restart loses
 * nothing (a row being sent when the process died is sent again).
 *
 * Quiet hours (local times in the user's zone): alerts then wait, and go out as ONE summary when
 * the quiet hours end.
 */
import crypto from "node:crypto";
import {
  ADMIN_ALERT_EVENTS,
  ALERT_EVENT_LABELS,
  ALERT_EVENTS,
  type AlertChannel,
  type AlertChannelType,
  type AlertDelivery,
  type AlertEvent,
  type AlertTestResult,
  type CreateAlertChannelBody,
  DEFAULT_NTFY_SERVER,
  type NotificationLevel,
  type UpdateAlertChannelBody,
  type WebhookFormat,
} from "../../contract/index.ts";
import type { AlertChannelRow, AlertOutboxRow, OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { AppError, badRequest, notFound } from "../../lib/errors.ts";
import { createRateWindow } from "../../lib/rate-window.ts";
import type { Secrets } from "../../lib/secrets.ts";
import type { Logger } from "../../log.ts";
import { html, type SafeHtml } from "../notifications/html.ts";
import type { NotificationAlert } from "../notifications/notifications.service.ts";
import type { AlertsRepo, ChannelForAlert } from "./alerts.repo.ts";
import {
  checkTarget,
  OutgoingError,
  pushEndpointProblem,
  type Resolver,
  type TargetPolicy,
} from "./outgoing.ts";
import {
  type AlertPayload,
  type AlertTarget,
  deliver,
  type SendOutcome,
  type Vapid,
} from "./senders.ts";
import { webpush } from "./web-push.ts";

export const MAX_ATTEMPTS = 5;
/** Waits before the 2nd, 3rd, 4th and 5th try (Retry-After wins when the far side sent one). */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000];
/** A Retry-After longer than this is shortened to it. */
const RETRY_AFTER_CAP_MS = 6 * 3600_000;
/** A channel failing this long (every try since the first failure) is paused. */
export const PAUSE_AFTER_MS = 24 * 3600_000;
export const MAX_CHANNELS_PER_USER = 20;
/** Tests (POST …/{id}/test) a user may send per minute: enough to fix a channel, too few to scan. */
export const ALERT_TESTS_PER_MINUTE = 5;
const POSTPONE_AFTER_ERROR_MS = 5 * 60_000;
/** Deliveries kept per channel for the Account page. */
export const DELIVERIES_KEPT = 20;
const DELIVERIES_SHOWN = 5;
const CHANNEL_NOT_FOUND = "Alert channel not found";
const VAPID_KEY = "vapid";

const URGENT: ReadonlySet<AlertEvent> = new Set([
  "review_overdue",
  "mailbox_attention",
  "disk_nearly_full",
  "mailbox_supervisor_failing",
]);

type NtfySettings = { serverUrl: string; auth: "none" | "token" | "password"; username?: string };
type WebhookSettings = { format: WebhookFormat; origin: string };
type PushSettings = { deviceName: string; service: string };
type Settings = NtfySettings | WebhookSettings | PushSettings;
type NtfySecret = { topic: string; token?: string; password?: string };
type WebhookSecret = { url: string };
type PushSecret = { subscription: { endpoint: string; keys: { p256dh: string; auth: string } } };

export type AlertsDeps = {
  repo: AlertsRepo;
  secrets: Secrets;
  events: EventBus;
  /** The bell: tells a user their channel was paused (no event kind: never an alert itself). */
  notify: (userId: number, level: NotificationLevel, message: SafeHtml) => unknown;
  timeZoneOf: (userId: number) => string | null;
  findOrder: (userId: number, orderId: number) => OrderRow | undefined;
  isAdmin: (userId: number) => boolean;
  publicUrl: string | null;
  /** WEB_PUSH_CONTACT: the Web Push (VAPID) contact when PUBLIC_URL is not a public https one. */
  webPushContact?: string | null;
  /** ALERTS_ALLOW_LOOPBACK: alerts may go to loopback and the server's own addresses. */
  allowLoopback: boolean;
  log: Logger;
  now?: () => Date;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** DNS for outgoing requests (tests answer names with the addresses they need). */
  resolve?: Resolver;
};

const mask = (s: string) => (s.length >= 12 ? `••••${s.slice(-4)}` : "••••");
const maskTopic = (s: string) => `${s.slice(0, Math.min(3, s.length - 1))}••••`;
const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

/** Minutes since local midnight in the zone (UTC for an unknown or unset zone). */
export function localMinutes(at: Date, timeZone: string | null): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-GB", {
      timeZone: timeZone ?? "UTC",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(at);
  } catch {
    return at.getUTCHours() * 60 + at.getUTCMinutes();
  }
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get("hour") * 60 + get("minute");
}
const hm = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));

/** When the quiet hours around `at` end, or null when `at` is outside them. */
export function quietUntil(
  at: Date,
  timeZone: string | null,
  quiet: { start: string; end: string } | null,
): Date | null {
  if (!quiet) return null;
  const m = localMinutes(at, timeZone);
  const s = hm(quiet.start);
  const e = hm(quiet.end);
  const inside = s < e ? m >= s && m < e : m >= s || m < e;
  if (!inside) return null;
  const wait = (e - m + 1440) % 1440;
  const startOfMinute = at.getTime() - (at.getTime() % 60_000);
  return new Date(startOfMinute + wait * 60_000);
}

/** True for a host a push service can resolve (Apple refuses localhost and .local subjects). */
const publicHost = (host: string) =>
  host.includes(".") && !/(^|\.)(localhost|local|lan|home|internal|test|invalid)$/i.test(host);

/**
 * The VAPID `sub` (RFC 8292: a contact for the push service's operator), sent to every push
 * service and to whatever a push endpoint names: PUBLIC_URL when it is a public https address,
 * else WEB_PUSH_CONTACT (mailto: or https:, chosen by the administrator to be shown), else a
 * placeholder on a real domain. Never an account's email. Apple's push service answers
 * 403 BadJwtToken to a localhost or .local subject.
 */
export function vapidSubject(publicUrl: string | null, contact: string | null): string {
  if (publicUrl?.startsWith("https://") && publicHost(new URL(publicUrl).hostname))
    return publicUrl;
  if (contact) return contact;
  return "mailto:grapevine@example.com";
}

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

function validPushKeys(keys: { p256dh: string; auth: string }): boolean {
  const b64 = /^[A-Za-z0-9_-]+={0,2}$/;
  if (!b64.test(keys.p256dh) || !b64.test(keys.auth)) return false;
  const p = Buffer.from(keys.p256dh, "base64url");
  return p.length === 65 && p[0] === 4 && Buffer.from(keys.auth, "base64url").length === 16;
}

export function createAlertsService(deps: AlertsDeps) {
  const { repo, secrets, log } = deps;
  const clock = deps.now ?? (() => new Date());
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  const policy: TargetPolicy = { allowLoopback: deps.allowLoopback };
  const tests = createRateWindow({
    limit: ALERT_TESTS_PER_MINUTE,
    windowMs: 60_000,
    now: () => clock().getTime(),
  });

  // ---- channels -------------------------------------------------------------------------------

  const settingsOf = (row: AlertChannelRow) => JSON.parse(row.settings) as Settings;
  const secretOf = (row: AlertChannelRow) => JSON.parse(secrets.decrypt(row.secret)) as unknown;
  const eventsOf = (row: Pick<AlertChannelRow, "events">) =>
    (JSON.parse(row.events) as string[]).filter((e): e is AlertEvent =>
      (ALERT_EVENTS as readonly string[]).includes(e),
    );

  function toDelivery(r: AlertOutboxRow): AlertDelivery {
    return {
      id: r.id,
      at: r.finishedAt ?? r.createdAt,
      event: r.event as AlertDelivery["event"],
      status: r.status as AlertDelivery["status"],
      result: r.result,
      attempts: r.attempts,
    };
  }

  function toChannel(row: AlertChannelRow): AlertChannel {
    const base: AlertChannel = {
      id: row.id,
      type: row.type as AlertChannelType,
      name: row.name,
      enabled: row.enabled,
      events: eventsOf(row),
      quietHours:
        row.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null,
      paused: row.pausedAt ? { at: row.pausedAt, reason: row.pausedReason ?? "" } : null,
      deliveries: repo.deliveries(row.id, DELIVERIES_SHOWN).map(toDelivery),
      createdAt: row.createdAt,
    };
    const s = settingsOf(row);
    let secret: unknown = null;
    try {
      secret = secretOf(row);
    } catch {
      // key changed: shown without the secret parts; the test says what is wrong
    }
    if (row.type === "ntfy") {
      const n = s as NtfySettings;
      const sec = (secret ?? {}) as Partial<NtfySecret>;
      base.ntfy = {
        serverUrl: withoutCredentials(n.serverUrl),
        topic: sec.topic ? maskTopic(sec.topic) : "••••",
        auth: n.auth,
        ...(n.auth === "token" ? { token: sec.token ? mask(sec.token) : "••••" } : {}),
        ...(n.auth === "password" && n.username ? { username: n.username } : {}),
      };
    } else if (row.type === "webhook") {
      const w = s as WebhookSettings;
      base.webhook = { url: `${w.origin}/••••`, format: w.format };
    } else {
      const p = s as PushSettings;
      base.webpush = { service: p.service, deviceName: p.deviceName };
    }
    return base;
  }

  function ownedRow(userId: number, id: number): AlertChannelRow {
    const row = repo.findChannel(userId, id);
    if (!row) throw notFound(CHANNEL_NOT_FOUND);
    return row;
  }

  function checkEvents(userId: number, events: AlertEvent[]): AlertEvent[] {
    if (!deps.isAdmin(userId) && events.some((e) => ADMIN_ALERT_EVENTS.includes(e))) {
      throw badRequest(
        "Server problems (disk nearly full, mailbox supervisor failing) are sent to the administrator only",
      );
    }
    return [...new Set(events)];
  }
  const defaultEvents = (userId: number) =>
    ALERT_EVENTS.filter((e) => deps.isAdmin(userId) || !ADMIN_ALERT_EVENTS.includes(e));

  async function checkUrl(url: string) {
    try {
      await checkTarget(url, { resolve: deps.resolve, policy });
    } catch (err) {
      if (err instanceof OutgoingError) throw badRequest(err.message);
      throw err;
    }
  }

  function checkNtfyAuth(s: {
    token?: string | null;
    username?: string | null;
    password?: string | null;
  }) {
    if (s.token && (s.username || s.password)) {
      throw badRequest("Use either an access token or a user name and password, not both");
    }
    if (Boolean(s.username) !== Boolean(s.password)) {
      throw badRequest("A user name needs a password (and a password a user name)");
    }
  }

  async function checkPushEndpoint(endpoint: string) {
    const problem = pushEndpointProblem(endpoint, policy);
    if (problem) throw badRequest(problem);
    await checkUrl(endpoint);
  }

  function hostOf(url: string) {
    return new URL(url).host;
  }

  const publishChange = (userId: number) => deps.events.publish(userId, "user", "UPDATE");

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
      if (!validPushKeys(body.subscription.keys)) {
        throw badRequest(
          "The push subscription's keys are not valid (p256dh must be a P-256 public key, auth 16 bytes)",
        );
      }
      await checkPushEndpoint(body.subscription.endpoint);
      const deviceKey = sha256(body.subscription.endpoint);
      const deviceName = body.deviceName || body.name || "This device";
      const settings: PushSettings = { deviceName, service: hostOf(body.subscription.endpoint) };
      const secret = secrets.encrypt(
        JSON.stringify({ subscription: body.subscription } satisfies PushSecret),
      );
      const existing = repo.findDevice(userId, deviceKey);
      if (existing) {
        const row = repo.updateChannel(existing.id, {
          ...common,
          name: body.name || existing.name,
          settings: JSON.stringify(settings),
          secret,
          pausedAt: null,
          pausedReason: null,
          failingSince: null,
        });
        publishChange(userId);
        return { channel: toChannel(row ?? existing), created: false };
      }
      limit(userId);
      const row = repo.insertChannel({
        ...common,
        type: "webpush",
        name: body.name || deviceName,
        settings: JSON.stringify(settings),
        secret,
        deviceKey,
      });
      publishChange(userId);
      return { channel: toChannel(row), created: true };
    }
    limit(userId);
    let row: AlertChannelRow;
    if (body.type === "ntfy") {
      checkNtfyAuth(body);
      const serverUrl = (body.serverUrl ?? DEFAULT_NTFY_SERVER).replace(/\/+$/, "");
      await checkUrl(serverUrl);
      const settings: NtfySettings = {
        serverUrl,
        auth: body.token ? "token" : body.username ? "password" : "none",
        ...(body.username ? { username: body.username } : {}),
      };
      const secret: NtfySecret = {
        topic: body.topic,
        ...(body.token ? { token: body.token } : {}),
        ...(body.password ? { password: body.password } : {}),
      };
      row = repo.insertChannel({
        ...common,
        type: "ntfy",
        name: body.name || `ntfy: ${maskTopic(body.topic)}`,
        settings: JSON.stringify(settings),
        secret: secrets.encrypt(JSON.stringify(secret)),
        deviceKey: null,
      });
    } else {
      await checkUrl(body.url);
      const settings: WebhookSettings = { format: body.format, origin: new URL(body.url).origin };
      const label = { json: "Webhook", discord: "Discord", slack: "Slack" }[body.format];
      row = repo.insertChannel({
        ...common,
        type: "webhook",
        name: body.name || `${label}: ${new URL(body.url).host}`,
        settings: JSON.stringify(settings),
        secret: secrets.encrypt(JSON.stringify({ url: body.url } satisfies WebhookSecret)),
        deviceKey: null,
      });
    }
    publishChange(userId);
    return { channel: toChannel(row), created: true };
  }

  function limit(userId: number) {
    if (repo.listChannels(userId).length >= MAX_CHANNELS_PER_USER) {
      throw badRequest(
        `A user can have at most ${MAX_CHANNELS_PER_USER} alert channels; delete one first`,
      );
    }
  }

  const TYPE_FIELDS: Record<AlertChannelType, readonly string[]> = {
    ntfy: ["serverUrl", "topic", "token", "username", "password"],
    webhook: ["url", "format"],
    webpush: ["subscription", "deviceName"],
  };
  const ALL_TYPE_FIELDS = Object.values(TYPE_FIELDS).flat();

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
    if (foreign) throw badRequest(`${foreign} is not a setting of a ${type} channel`);
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
        patch.failingSince = null;
      }
    }
    const settings = settingsOf(row);
    let secret: Record<string, unknown>;
    try {
      secret = secretOf(row) as Record<string, unknown>;
    } catch {
      secret = {};
    }
    let secretChanged = false;
    if (type === "ntfy") {
      const n = { ...(settings as NtfySettings) };
      const s = { ...(secret as NtfySecret) };
      if (body.serverUrl !== undefined) {
        n.serverUrl = body.serverUrl.replace(/\/+$/, "");
        await checkUrl(n.serverUrl);
      }
      if (body.topic !== undefined) s.topic = body.topic;
      const next = {
        token: body.token === undefined ? s.token : body.token,
        username: body.username === undefined ? n.username : body.username,
        password: body.password === undefined ? s.password : body.password,
      };
      // Choosing one kind of access drops the other.
      if (body.token) next.username = next.password = null;
      if (body.username || body.password) next.token = null;
      checkNtfyAuth(next);
      const fresh: NtfySecret = { topic: s.topic };
      if (next.token) fresh.token = next.token;
      if (next.password) fresh.password = next.password;
      const ns: NtfySettings = {
        serverUrl: n.serverUrl,
        auth: next.token ? "token" : next.username ? "password" : "none",
        ...(next.username ? { username: next.username } : {}),
      };
      patch.settings = JSON.stringify(ns);
      secret = fresh;
      secretChanged = true;
    } else if (type === "webhook") {
      const w = { ...(settings as WebhookSettings) };
      if (body.format !== undefined) w.format = body.format;
      if (body.url !== undefined) {
        await checkUrl(body.url);
        w.origin = new URL(body.url).origin;
        secret = { url: body.url };
        secretChanged = true;
      }
      patch.settings = JSON.stringify(w);
    } else {
      const p = { ...(settings as PushSettings) };
      if (body.deviceName !== undefined) p.deviceName = body.deviceName || p.deviceName;
      if (body.subscription !== undefined) {
        if (!validPushKeys(body.subscription.keys)) {
          throw badRequest(
            "The push subscription's keys are not valid (p256dh must be a P-256 public key, auth 16 bytes)",
          );
        }
        await checkPushEndpoint(body.subscription.endpoint);
        p.service = hostOf(body.subscription.endpoint);
        secret = { subscription: body.subscription };
        patch.deviceKey = sha256(body.subscription.endpoint);
        secretChanged = true;
      }
      patch.settings = JSON.stringify(p);
    }
    if (secretChanged) patch.secret = secrets.encrypt(JSON.stringify(secret));
    const updated = repo.updateChannel(row.id, patch) ?? row;
    publishChange(userId);
    kick();
    return toChannel(updated);
  }

  function remove(userId: number, id: number) {
    if (repo.deleteChannel(userId, id) === 0) throw notFound(CHANNEL_NOT_FOUND);
    publishChange(userId);
    return { success: true as const, message: "Alert channel deleted" };
  }

  // ---- sending --------------------------------------------------------------------------------

  let vapidKeys: Omit<Vapid, "subject"> | null = null;
  function vapid(): Vapid {
    if (!vapidKeys) {
      let stored = repo.getKey(VAPID_KEY);
      if (!stored) {
        const keys = webpush.generateVAPIDKeys();
        stored = repo.putKeyOnce(
          VAPID_KEY,
          JSON.stringify({
            publicKey: keys.publicKey,
            privateKey: secrets.encrypt(keys.privateKey),
          }),
        );
      }
      const k = JSON.parse(stored) as { publicKey: string; privateKey: string };
      vapidKeys = { publicKey: k.publicKey, privateKey: secrets.decrypt(k.privateKey) };
    }
    return { ...vapidKeys, subject: vapidSubject(deps.publicUrl, deps.webPushContact ?? null) };
  }

  function targetOf(row: AlertChannelRow): AlertTarget {
    const s = settingsOf(row);
    const sec = secretOf(row);
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

  async function send(row: AlertChannelRow, payload: AlertPayload): Promise<SendOutcome> {
    let target: AlertTarget;
    try {
      target = targetOf(row);
    } catch {
      return {
        kind: "give-up",
        result:
          "The channel's saved secret cannot be read (the server's secret key changed); save the channel again",
      };
    }
    return deliver(target, payload, {
      publicUrl: deps.publicUrl,
      vapid,
      timeoutMs: deps.timeoutMs,
      resolve: deps.resolve,
      policy,
      now: () => clock().getTime(),
    });
  }

  function payloadOf(rows: AlertOutboxRow[], sentAt: string): AlertPayload {
    const first = rows[0] as AlertOutboxRow;
    if (rows.length === 1) {
      const order = first.orderJson ? (JSON.parse(first.orderJson) as AlertPayload["order"]) : null;
      return {
        event: first.event as AlertPayload["event"],
        title: first.title,
        message: first.message,
        path: order ? `/orders/${order.id}/edit` : null,
        order,
        urgent: URGENT.has(first.event as AlertEvent),
        sentAt,
      };
    }
    const lines = rows.map((r) => `• ${r.title}: ${r.message}`);
    return {
      event: "summary",
      title: `${rows.length} alerts during quiet hours`,
      message: lines.join("\n").slice(0, 3500),
      path: null,
      order: null,
      urgent: rows.some((r) => URGENT.has(r.event as AlertEvent)),
      sentAt,
    };
  }

  /** What one attempt did to the channel: success clears failures, a day of them pauses it. */
  function afterAttempt(row: AlertChannelRow, outcome: SendOutcome, nowIso: string) {
    if (outcome.kind === "sent") {
      if (row.failingSince) repo.updateChannel(row.id, { failingSince: null });
      return;
    }
    const since = row.failingSince ?? nowIso;
    const gone = outcome.kind === "give-up" && outcome.gone === true;
    const day = Date.parse(nowIso) - Date.parse(since) >= PAUSE_AFTER_MS;
    if (!gone && !day) {
      if (!row.failingSince) repo.updateChannel(row.id, { failingSince: since });
      return;
    }
    const reason = gone
      ? outcome.result
      : `No alert could be delivered for a day; the last answer was: ${outcome.result}`;
    repo.updateChannel(row.id, { failingSince: since, pausedAt: nowIso, pausedReason: reason });
    repo.failPending(row.id, "Not sent: the channel was paused", nowIso);
    log.warn({ channelId: row.id, type: row.type }, "alerts: channel paused");
    try {
      deps.notify(
        row.userId,
        "warning",
        html`Alerts to <strong>${row.name}</strong> are paused: ${reason}. Check the channel in Account Settings → Alerts and save it to resume.`,
      );
    } catch (err) {
      log.error({ err }, "alerts: could not tell the user about a paused channel");
    }
  }

  /** Sends the channel's due rows: quiet-hours rows as one summary, the others one by one. */
  async function deliverChannel(channelId: number) {
    const row = repo.channelById(channelId);
    const now = clock();
    const nowIso = now.toISOString();
    const due = repo.dueForChannel(channelId, nowIso);
    if (!row || due.length === 0) return;
    if (!row.enabled || row.pausedAt) {
      repo.updateOutbox(
        due.map((r) => r.id),
        {
          status: "failed",
          result: row.pausedAt ? "Not sent: the channel is paused" : "Not sent: the channel is off",
          finishedAt: nowIso,
        },
      );
      return;
    }
    const quiet =
      row.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null;
    const until = quietUntil(now, deps.timeZoneOf(row.userId), quiet);
    if (until) {
      // Still quiet (a retry, or the clock moved): wait for the end, together.
      repo.updateOutbox(
        due.map((r) => r.id),
        { quiet: true, nextAttemptAt: until.toISOString() },
      );
      return;
    }
    const held = due.filter((r) => r.quiet);
    const batches = [
      ...(held.length > 0 ? [held] : []),
      ...due.filter((r) => !r.quiet).map((r) => [r]),
    ];
    for (const batch of batches) {
      if (stopped) return;
      const current = repo.channelById(channelId);
      if (!current || current.pausedAt) return;
      const payload = payloadOf(batch, clock().toISOString());
      const outcome = await send(current, payload);
      const at = clock();
      const atIso = at.toISOString();
      const attempts = Math.max(...batch.map((r) => r.attempts)) + 1;
      const ids = batch.map((r) => r.id);
      repo.transaction(() => {
        if (outcome.kind === "sent") {
          repo.updateOutbox(ids, {
            status: "sent",
            attempts,
            result:
              batch.length > 1
                ? `${outcome.result} (one summary of ${batch.length})`
                : outcome.result,
            finishedAt: atIso,
          });
        } else if (outcome.kind === "retry" && attempts < MAX_ATTEMPTS) {
          const wait =
            outcome.retryAfterMs !== null
              ? Math.min(outcome.retryAfterMs, RETRY_AFTER_CAP_MS)
              : (delays[attempts - 1] ?? delays.at(-1) ?? 60_000);
          repo.updateOutbox(ids, {
            attempts,
            result: `${outcome.result}; trying again`,
            nextAttemptAt: new Date(at.getTime() + wait).toISOString(),
          });
        } else {
          repo.updateOutbox(ids, {
            status: "failed",
            attempts,
            result:
              outcome.kind === "retry"
                ? `${outcome.result}; gave up after ${attempts} tries`
                : outcome.result,
            finishedAt: atIso,
          });
        }
        afterAttempt(current, outcome, atIso);
        repo.pruneFinished(channelId, DELIVERIES_KEPT);
      });
      log.info(
        {
          channelId,
          type: current.type,
          events: batch.map((r) => r.event),
          outcome: outcome.kind,
          attempts,
        },
        "alerts: delivery",
      );
      publishChange(current.userId);
    }
  }

  // The one sender loop: kick() wakes it; a timer wakes it for the next due row.
  let stopped = true;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let kickQueued = false;
  /** Resolves when the loop has nothing more to do now (tests wait on the far side instead). */
  const idleWaiters: (() => void)[] = [];

  async function runLoop() {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const due = repo.due(clock().toISOString(), 100);
        if (due.length === 0) break;
        const channels = [...new Set(due.map((r) => r.channelId))];
        await Promise.all(
          channels.map((id) =>
            deliverChannel(id).catch((err) => {
              // A bug, not the far side: try again in a while instead of at once, forever.
              log.error({ err, channelId: id }, "alerts: delivery failed");
              const later = new Date(clock().getTime() + POSTPONE_AFTER_ERROR_MS).toISOString();
              repo.updateOutbox(
                repo.dueForChannel(id, clock().toISOString()).map((r) => r.id),
                {
                  nextAttemptAt: later,
                  result: "Not sent yet: the server hit an error; trying again",
                },
              );
            }),
          ),
        );
      }
    } while (again && !stopped);
  }

  function schedule() {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = null;
    const next = repo.nextDue();
    if (!next) return;
    const wait = Math.max(0, Date.parse(next) - clock().getTime());
    timer = setTimeout(kick, Math.min(wait, 3600_000));
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runLoop()
      .catch((err) => log.error({ err }, "alerts: sender loop failed"))
      .finally(() => {
        running = null;
        schedule();
        for (const w of idleWaiters.splice(0)) w();
      });
  }

  return {
    list: (userId: number): AlertChannel[] => repo.listChannels(userId).map(toChannel),
    get: (userId: number, id: number): AlertChannel => toChannel(ownedRow(userId, id)),
    create,
    update,
    remove,

    /**
     * POST .../{id}/test: sends now, whatever the quiet hours, and answers the far side's status
     * in a sentence; ALERT_TESTS_PER_MINUTE per user (429 with Retry-After beyond it).
     */
    async test(userId: number, id: number): Promise<AlertTestResult> {
      const row = ownedRow(userId, id);
      const allowed = tests.hit(String(userId));
      if (!allowed.ok) {
        const wait = Math.ceil(allowed.retryAfterMs / 1000);
        throw new AppError(
          429,
          `Too many alert tests: ${ALERT_TESTS_PER_MINUTE} a minute at most. Try again in ${wait} second${wait === 1 ? "" : "s"}.`,
          undefined,
          { "Retry-After": String(wait) },
        );
      }
      const nowIso = clock().toISOString();
      const outcome = await send(row, {
        event: "test",
        title: "Grapevine test alert",
        message: `Alerts from Grapevine reach this channel (${row.name}).`,
        path: "/account?tab=alerts",
        order: null,
        urgent: false,
        sentAt: nowIso,
      });
      const atIso = clock().toISOString();
      repo.transaction(() => {
        const r = repo.insertOutbox({
          channelId: row.id,
          event: "test",
          title: "Grapevine test alert",
          message: "",
          orderJson: null,
          quiet: false,
          nextAttemptAt: nowIso,
        });
        repo.updateOutbox([r.id], {
          status: outcome.kind === "sent" ? "sent" : "failed",
          attempts: 1,
          result: outcome.result,
          finishedAt: atIso,
        });
        if (outcome.kind === "sent" && row.failingSince)
          repo.updateChannel(row.id, { failingSince: null });
        repo.pruneFinished(row.id, DELIVERIES_KEPT);
      });
      log.info({ channelId: row.id, type: row.type, outcome: outcome.kind }, "alerts: test");
      publishChange(userId);
      return outcome.kind === "sent" ? { ok: true } : { ok: false, error: outcome.result };
    },

    webpushKey: () => ({ publicKey: vapid().publicKey }),

    /** The export's `alertChannels` section: the channels as the API shows them (secrets masked). */
    exportSection: (userId: number): { alertChannels: AlertChannel[] } => ({
      alertChannels: repo.listChannels(userId).map(toChannel),
    }),

    /**
     * Called by notify() after it stored a notification with an event kind: one outbox row per
     * channel of the user that chose the event. Never throws (the notification is what matters);
     * the sending happens later, in the loop.
     */
    enqueue(userId: number, title: string, message: string, tag: NotificationAlert): void {
      try {
        const kinds = (Array.isArray(tag.event) ? tag.event : [tag.event]) as AlertEvent[];
        const channels = repo
          .channelsForAlert(userId)
          .map((c) => ({ c, event: kinds.find((k) => eventsOf(c).includes(k)) }))
          .filter((x): x is { c: ChannelForAlert; event: AlertEvent } => x.event !== undefined);
        if (channels.length === 0) return;
        const order = tag.orderId !== undefined ? deps.findOrder(userId, tag.orderId) : undefined;
        const orderJson = order
          ? JSON.stringify({
              id: order.id,
              number: order.amazonOrderNumber,
              product: order.productName,
              status: order.status,
            })
          : null;
        const now = clock();
        const zone = deps.timeZoneOf(userId);
        // One write for all of them (a savepoint inside the caller's transaction, if any).
        repo.transaction(() =>
          repo.queue(
            channels.map(({ c, event }) => {
              const quiet =
                c.quietStart && c.quietEnd ? { start: c.quietStart, end: c.quietEnd } : null;
              const until = quietUntil(now, zone, quiet);
              return {
                channelId: c.id,
                event,
                title: title || ALERT_EVENT_LABELS[event],
                message,
                orderJson,
                quiet: until !== null,
                nextAttemptAt: (until ?? now).toISOString(),
              };
            }),
          ),
        );
        // After the caller's transaction, and never in its way; one wake-up for a burst.
        if (!kickQueued) {
          kickQueued = true;
          setTimeout(() => {
            kickQueued = false;
            kick();
          }, 0);
        }
      } catch (err) {
        log.error({ err, userId }, "alerts: could not queue an alert");
      }
    },

    /** Starts the sender: what waited in the outbox across a restart goes out now. */
    start() {
      if (!stopped) return;
      stopped = false;
      vapid();
      kick();
    },
    /** Stops the sender; an alert being sent finishes (within the request timeout). */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    /** Wakes the sender now (after a clock change in tests, or a resumed channel). */
    kick,
    /** Resolves when the sender has nothing to do now. */
    idle(): Promise<void> {
      if (!running) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
export type AlertsService = ReturnType<typeof createAlertsService>;
