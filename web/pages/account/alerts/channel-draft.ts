/**
 * The alert channel form's rules, pure: the draft a channel (or nothing) opens the form with, which
 * fields the form requires, and the request body a draft becomes. Editing: a secret field left
 * empty keeps what is saved (the API shows secrets masked); changing the access kind removes the
 * old kind's secrets (null); a new channel sends only what it has.
 */
import {
  ADMIN_ALERT_EVENTS,
  ALERT_EVENTS,
  type AlertEvent,
  DEFAULT_NTFY_SERVER,
  type WebhookFormat,
} from "../../../../src/contract/alert-events.ts";
import type {
  AlertChannel,
  CreateAlertChannelBody,
  UpdateAlertChannelBody,
} from "../../../../src/contract/alerts.ts";
import { type MessageId, translate } from "../../../i18n/index.ts";

/** A webhook format as the form names it; its first word names it on a channel's card. */
export function formatLabel(format: WebhookFormat): string {
  return format === "json"
    ? translate("alerts.format.json")
    : format === "discord"
      ? "Discord"
      : "Slack";
}

const EVENT_IDS: Record<AlertEvent, MessageId> = {
  new_order: "alerts.event.newOrder",
  shipped: "alerts.event.shipped",
  delivered: "alerts.event.delivered",
  review_due: "alerts.event.reviewDue",
  review_overdue: "alerts.event.reviewOverdue",
  review_decided: "alerts.event.reviewDecided",
  mailbox_attention: "alerts.event.mailboxAttention",
  tracking_problem: "alerts.event.trackingProblem",
  disk_nearly_full: "alerts.event.diskNearlyFull",
  mailbox_supervisor_failing: "alerts.event.mailboxSupervisorFailing",
};

/** An event as the Account page names it, in the reader's language (the event's own name if unknown). */
export function alertEventLabel(event: string): string {
  const id = EVENT_IDS[event as AlertEvent];
  return id ? translate(id) : event;
}

export type NtfyAccess = "none" | "token" | "password";

export type Draft = {
  type: "ntfy" | "webhook";
  name: string;
  serverUrl: string;
  topic: string;
  access: NtfyAccess;
  token: string;
  username: string;
  password: string;
  url: string;
  format: WebhookFormat;
  events: AlertEvent[];
  quiet: boolean;
  quietStart: string;
  quietEnd: string;
  enabled: boolean;
};

/** The events a user may choose: the administrator's own events only for the administrator. */
export function userEvents(admin: boolean): AlertEvent[] {
  return ALERT_EVENTS.filter((e) => admin || !ADMIN_ALERT_EVENTS.includes(e));
}

/** The form's first values: the channel's own, or a new ntfy channel sending every event. */
export function draftOf(ch: AlertChannel | null, admin: boolean): Draft {
  return {
    type: ch?.type === "webhook" ? "webhook" : "ntfy",
    name: ch?.name ?? "",
    serverUrl: ch?.ntfy?.serverUrl ?? DEFAULT_NTFY_SERVER,
    topic: "",
    access: ch?.ntfy?.auth ?? "none",
    token: "",
    username: ch?.ntfy?.username ?? "",
    password: "",
    url: "",
    format: ch?.webhook?.format ?? "json",
    events: ch?.events ?? userEvents(admin),
    quiet: Boolean(ch?.quietHours),
    quietStart: ch?.quietHours?.start ?? "22:00",
    quietEnd: ch?.quietHours?.end ?? "07:00",
    enabled: ch?.enabled ?? true,
  };
}

/** The fields the form requires: a saved topic or URL is kept when its field is left empty. */
export function requiredFields(editing: boolean) {
  return { serverUrl: true, topic: !editing, url: !editing, quietTimes: true } as const;
}

/** The event list after one box is ticked or cleared. */
export function toggleEvent(events: AlertEvent[], ev: AlertEvent, on: boolean): AlertEvent[] {
  return on ? [...events, ev] : events.filter((x) => x !== ev);
}

function common(d: Draft) {
  return {
    name: d.name.trim(),
    events: d.events,
    quietHours: d.quiet ? { start: d.quietStart, end: d.quietEnd } : null,
  };
}

/** The ntfy secrets of the chosen access kind; null removes another kind's saved one. */
function ntfyAccess(d: Draft) {
  return {
    token: d.access === "token" ? d.token.trim() || undefined : null,
    username: d.access === "password" ? d.username.trim() || undefined : null,
    password: d.access === "password" ? d.password || undefined : null,
  };
}

/** POST /api/user/alert-channels from a new channel's draft. */
export function createBody(d: Draft): CreateAlertChannelBody {
  if (d.type === "webhook")
    return { type: "webhook", ...common(d), url: d.url.trim(), format: d.format };
  const access = ntfyAccess(d);
  return {
    type: "ntfy",
    ...common(d),
    serverUrl: d.serverUrl.trim(),
    topic: d.topic.trim(),
    token: access.token ?? undefined,
    username: access.username ?? undefined,
    password: access.password ?? undefined,
  };
}

/** PUT /api/user/alert-channels/{id}: only what the draft changes or fills in. */
export function updateBody(d: Draft, ch: AlertChannel): UpdateAlertChannelBody {
  const body: UpdateAlertChannelBody = { ...common(d), enabled: d.enabled };
  if (ch.type === "ntfy") {
    body.serverUrl = d.serverUrl.trim();
    if (d.topic.trim()) body.topic = d.topic.trim();
    if (d.access !== ch.ntfy?.auth) Object.assign(body, ntfyAccess(d));
    else if (d.access === "token" && d.token.trim()) body.token = d.token.trim();
    else if (d.access === "password") {
      if (d.username.trim() !== ch.ntfy?.username) body.username = d.username.trim();
      if (d.password) body.password = d.password;
    }
  } else if (ch.type === "webhook") {
    body.format = d.format;
    if (d.url.trim()) body.url = d.url.trim();
  }
  return body;
}

/** The line under a channel's name: where it sends. */
export function describeTarget(ch: AlertChannel): string {
  if (ch.ntfy)
    return translate("alerts.target.ntfy", { server: ch.ntfy.serverUrl, topic: ch.ntfy.topic });
  if (ch.webhook) return `${formatLabel(ch.webhook.format).split(" ")[0]} · ${ch.webhook.url}`;
  if (ch.webpush) return `${ch.webpush.deviceName} · ${ch.webpush.service}`;
  return "";
}
