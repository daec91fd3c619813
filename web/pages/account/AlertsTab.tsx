/**
 * Account Settings → Alerts: the user's alert channels (ntfy, webhooks, Web Push), what
 * each one sends and when (events, quiet hours), a test button that says what the far side
 * answered, each channel's last deliveries, and "Enable push on this device".
 */
import { type FormEvent, useState } from "react";
import {
  ADMIN_ALERT_EVENTS,
  ALERT_EVENT_LABELS,
  ALERT_EVENTS,
  type AlertEvent,
  DEFAULT_NTFY_SERVER,
  type WebhookFormat,
} from "../../../src/contract/alert-events.ts";
import type {
  AlertChannel,
  CreateAlertChannelBody,
  UpdateAlertChannelBody,
} from "../../../src/contract/alerts.ts";
import { ConfirmDialog } from "../../components/Dialog.tsx";
import {
  pushUnsupportedReason,
  useAlertChannels,
  useCreateAlertChannel,
  useDeleteAlertChannel,
  useEnablePush,
  useTestAlertChannel,
  useUpdateAlertChannel,
} from "../../hooks/useAlerts.ts";
import { useTimeZone } from "../../hooks/useTimeZone.ts";
import { isAdmin, useAuth } from "../../lib/auth.tsx";
import { formatDate } from "../../lib/format.ts";
import "../../styles/alerts.css";
import { LoadFailed } from "../../components/LoadFailed.tsx";

const FORMAT_LABELS: Record<WebhookFormat, string> = {
  json: "JSON (Home Assistant and others)",
  discord: "Discord",
  slack: "Slack",
};
const TYPE_LABELS = { ntfy: "ntfy", webhook: "Webhook", webpush: "Push on a device" } as const;

type Draft = {
  type: "ntfy" | "webhook";
  name: string;
  serverUrl: string;
  topic: string;
  access: "none" | "token" | "password";
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

function userEvents(admin: boolean): AlertEvent[] {
  return ALERT_EVENTS.filter((e) => admin || !ADMIN_ALERT_EVENTS.includes(e));
}

function draftOf(ch: AlertChannel | null, admin: boolean): Draft {
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

/** The add / edit form. Editing: an empty secret field keeps what is saved. */
function ChannelForm(props: { channel: AlertChannel | null; onDone: () => void }) {
  const { user } = useAuth();
  const admin = isAdmin(user);
  const ch = props.channel;
  const [d, setD] = useState<Draft>(() => draftOf(ch, admin));
  const create = useCreateAlertChannel();
  const update = useUpdateAlertChannel();
  const busy = create.isPending || update.isPending;
  const set = (patch: Partial<Draft>) => setD((cur) => ({ ...cur, ...patch }));
  const type = ch?.type ?? d.type;
  const idp = ch ? `ch${ch.id}` : "new";

  function submit(e: FormEvent) {
    e.preventDefault();
    const common = {
      name: d.name.trim(),
      events: d.events,
      quietHours: d.quiet ? { start: d.quietStart, end: d.quietEnd } : null,
    };
    const ntfyAccess = {
      token: d.access === "token" ? d.token.trim() || undefined : null,
      username: d.access === "password" ? d.username.trim() || undefined : null,
      password: d.access === "password" ? d.password || undefined : null,
    };
    if (!ch) {
      const body: CreateAlertChannelBody =
        d.type === "ntfy"
          ? {
              type: "ntfy",
              ...common,
              serverUrl: d.serverUrl.trim(),
              topic: d.topic.trim(),
              token: ntfyAccess.token ?? undefined,
              username: ntfyAccess.username ?? undefined,
              password: ntfyAccess.password ?? undefined,
            }
          : { type: "webhook", ...common, url: d.url.trim(), format: d.format };
      create.mutate(body, { onSuccess: props.onDone });
      return;
    }
    const body: UpdateAlertChannelBody = { ...common, enabled: d.enabled };
    if (ch.type === "ntfy") {
      body.serverUrl = d.serverUrl.trim();
      if (d.topic.trim()) body.topic = d.topic.trim();
      if (d.access !== ch.ntfy?.auth) Object.assign(body, ntfyAccess);
      else if (d.access === "token" && d.token.trim()) body.token = d.token.trim();
      else if (d.access === "password") {
        if (d.username.trim() !== ch.ntfy?.username) body.username = d.username.trim();
        if (d.password) body.password = d.password;
      }
    } else if (ch.type === "webhook") {
      body.format = d.format;
      if (d.url.trim()) body.url = d.url.trim();
    }
    update.mutate({ id: ch.id, body }, { onSuccess: props.onDone });
  }

  const keep = ch ? "Leave empty to keep the saved one" : undefined;
  return (
    <form
      className="alert-form"
      onSubmit={submit}
      aria-label={ch ? `Edit ${ch.name}` : "Add a channel"}
    >
      {!ch && (
        <fieldset>
          <legend>Kind</legend>
          {(["ntfy", "webhook"] as const).map((t) => (
            <label key={t}>
              <input
                type="radio"
                name={`${idp}-type`}
                checked={d.type === t}
                onChange={() => set({ type: t })}
              />
              {t === "ntfy" ? "ntfy" : "Webhook (Home Assistant, Discord, Slack)"}
            </label>
          ))}
        </fieldset>
      )}
      <label>
        Name <small>(optional)</small>
        <input
          value={d.name}
          maxLength={60}
          onChange={(e) => set({ name: e.currentTarget.value })}
          disabled={busy}
        />
      </label>
      {type === "ntfy" && (
        <>
          <div className="grid">
            <label>
              ntfy server
              <input
                type="url"
                value={d.serverUrl}
                required
                onChange={(e) => set({ serverUrl: e.currentTarget.value })}
                disabled={busy}
              />
            </label>
            <label>
              Topic
              <input
                value={d.topic}
                required={!ch}
                placeholder={
                  ch ? `${ch.ntfy?.topic} (${keep?.toLowerCase()})` : "e.g. grapevine-8f3k2"
                }
                onChange={(e) => set({ topic: e.currentTarget.value })}
                disabled={busy}
              />
            </label>
          </div>
          <label htmlFor={`${idp}-access`}>Access</label>
          <select
            id={`${idp}-access`}
            value={d.access}
            onChange={(e) => set({ access: e.currentTarget.value as Draft["access"] })}
            disabled={busy}
          >
            <option value="none">None (public topic)</option>
            <option value="token">Access token</option>
            <option value="password">User name and password</option>
          </select>
          {d.access === "token" && (
            <label>
              Access token
              <input
                type="password"
                autoComplete="off"
                value={d.token}
                placeholder={ch?.ntfy?.token ? `${ch.ntfy.token} — ${keep}` : "tk_…"}
                onChange={(e) => set({ token: e.currentTarget.value })}
                disabled={busy}
              />
            </label>
          )}
          {d.access === "password" && (
            <div className="grid">
              <label>
                User name
                <input
                  autoComplete="off"
                  value={d.username}
                  onChange={(e) => set({ username: e.currentTarget.value })}
                  disabled={busy}
                />
              </label>
              <label>
                Password
                <input
                  type="password"
                  autoComplete="new-password"
                  value={d.password}
                  placeholder={ch?.ntfy?.auth === "password" ? keep : undefined}
                  onChange={(e) => set({ password: e.currentTarget.value })}
                  disabled={busy}
                />
              </label>
            </div>
          )}
        </>
      )}
      {type === "webhook" && (
        <div className="grid">
          <label>
            Webhook URL
            <input
              type="url"
              autoComplete="off"
              value={d.url}
              required={!ch}
              placeholder={
                ch
                  ? `${ch.webhook?.url} — ${keep}`
                  : "http://homeassistant.local:8123/api/webhook/…"
              }
              onChange={(e) => set({ url: e.currentTarget.value })}
              disabled={busy}
            />
          </label>
          <div>
            <label htmlFor={`${idp}-format`}>Format</label>
            <select
              id={`${idp}-format`}
              value={d.format}
              onChange={(e) => set({ format: e.currentTarget.value as WebhookFormat })}
              disabled={busy}
            >
              {(Object.keys(FORMAT_LABELS) as WebhookFormat[]).map((f) => (
                <option key={f} value={f}>
                  {FORMAT_LABELS[f]}
                </option>
              ))}
            </select>
          </div>
        </div>
      )}
      <fieldset className="alert-events">
        <legend>Send alerts for</legend>
        {userEvents(admin).map((ev) => (
          <label key={ev}>
            <input
              type="checkbox"
              checked={d.events.includes(ev)}
              disabled={busy}
              onChange={(e) =>
                set({
                  events: e.currentTarget.checked
                    ? [...d.events, ev]
                    : d.events.filter((x) => x !== ev),
                })
              }
            />
            {ALERT_EVENT_LABELS[ev]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <label>
          <input
            type="checkbox"
            role="switch"
            aria-checked={d.quiet}
            checked={d.quiet}
            disabled={busy}
            onChange={(e) => set({ quiet: e.currentTarget.checked })}
          />
          Quiet hours (alerts wait and arrive as one summary when they end)
        </label>
        {d.quiet && (
          <div className="grid">
            <label>
              From
              <input
                type="time"
                value={d.quietStart}
                required
                onChange={(e) => set({ quietStart: e.currentTarget.value })}
                disabled={busy}
              />
            </label>
            <label>
              Until
              <input
                type="time"
                value={d.quietEnd}
                required
                onChange={(e) => set({ quietEnd: e.currentTarget.value })}
                disabled={busy}
              />
            </label>
          </div>
        )}
      </fieldset>
      {ch && (
        <label>
          <input
            type="checkbox"
            role="switch"
            aria-checked={d.enabled}
            checked={d.enabled}
            disabled={busy}
            onChange={(e) => set({ enabled: e.currentTarget.checked })}
          />
          {ch.paused ? "On (saving resumes the paused channel)" : "On"}
        </label>
      )}
      <div className="alert-form-actions">
        <button type="button" className="secondary" onClick={props.onDone} disabled={busy}>
          Cancel
        </button>
        <button type="submit" aria-busy={busy || undefined} disabled={busy}>
          {ch ? "Save Channel" : "Add Channel"}
        </button>
      </div>
    </form>
  );
}

function describeTarget(ch: AlertChannel): string {
  if (ch.ntfy) return `${ch.ntfy.serverUrl} · topic ${ch.ntfy.topic}`;
  if (ch.webhook) return `${FORMAT_LABELS[ch.webhook.format].split(" ")[0]} · ${ch.webhook.url}`;
  if (ch.webpush) return `${ch.webpush.deviceName} · ${ch.webpush.service}`;
  return "";
}

function ChannelCard(props: { channel: AlertChannel }) {
  const ch = props.channel;
  const zone = useTimeZone();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const test = useTestAlertChannel();
  const remove = useDeleteAlertChannel();
  const state = ch.paused ? "Paused" : ch.enabled ? "On" : "Off";
  return (
    <article className="alert-channel" aria-label={ch.name} data-channel-id={ch.id}>
      <header>
        <div>
          <h3>{ch.name}</h3>
          <small>
            {TYPE_LABELS[ch.type]} · {describeTarget(ch)}
          </small>
        </div>
        <span className={`alert-state alert-state-${state.toLowerCase()}`}>{state}</span>
      </header>
      {ch.paused && (
        <p className="alert-paused" role="status">
          Paused: {ch.paused.reason}
        </p>
      )}
      {editing ? (
        <ChannelForm channel={ch} onDone={() => setEditing(false)} />
      ) : (
        <>
          <p className="alert-summary">
            {ch.events.length === 0
              ? "No events chosen: this channel sends nothing."
              : ch.events.map((e) => ALERT_EVENT_LABELS[e]).join(", ")}
            {ch.quietHours && (
              <>
                <br />
                Quiet hours {ch.quietHours.start}–{ch.quietHours.end}
              </>
            )}
          </p>
          <div className="alert-actions">
            <button
              type="button"
              className="outline"
              aria-busy={test.isPending || undefined}
              disabled={test.isPending}
              onClick={() => test.mutate(ch.id)}
            >
              Send Test
            </button>
            <button type="button" className="outline secondary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="outline contrast" onClick={() => setConfirm(true)}>
              Delete
            </button>
          </div>
        </>
      )}
      <details className="alert-deliveries" open={ch.deliveries.length > 0 || undefined}>
        <summary>Last deliveries</summary>
        {ch.deliveries.length === 0 ? (
          <p>Nothing sent yet.</p>
        ) : (
          <div className="overflow-auto">
            <table>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {ch.deliveries.map((d) => (
                  <tr key={d.id} className={`delivery-${d.status}`}>
                    <td>{formatDate(d.at, zone)}</td>
                    <td>
                      {d.event === "test" ? "Test" : (ALERT_EVENT_LABELS[d.event] ?? d.event)}
                    </td>
                    <td>
                      {d.status === "pending"
                        ? "Waiting: "
                        : d.status === "failed"
                          ? "Failed: "
                          : ""}
                      {d.result ?? (d.status === "pending" ? "not sent yet" : "")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
      <ConfirmDialog
        open={confirm}
        title="Delete alert channel"
        message={`Delete "${ch.name}"? Alerts waiting for it are dropped.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => remove.mutate(ch.id, { onSuccess: () => setConfirm(false) })}
        onCancel={() => setConfirm(false)}
      />
    </article>
  );
}

function PushCard() {
  const enable = useEnablePush();
  const reason = pushUnsupportedReason();
  return (
    <article className="alert-push">
      <h3>Push on this device</h3>
      <p>
        Alerts as notifications on this phone or computer, even when Grapevine is closed. On a
        phone, install Grapevine first (Add to Home Screen).
      </p>
      {reason && <p className="alert-paused">{reason}</p>}
      <button
        type="button"
        disabled={Boolean(reason) || enable.isPending}
        aria-busy={enable.isPending || undefined}
        onClick={() => enable.mutate()}
      >
        Enable push on this device
      </button>
    </article>
  );
}

export function AlertsTab() {
  const channels = useAlertChannels();
  const [adding, setAdding] = useState(false);
  if (channels.isLoading) return <article aria-busy="true" aria-label="Loading alert channels" />;
  if (channels.isError || !channels.data) {
    return (
      <LoadFailed message="Your alert channels could not be loaded." onRetry={channels.refetch} />
    );
  }
  return (
    <div className="alerts-tab">
      <article>
        <header>
          <h2>Alerts</h2>
        </header>
        <p>
          Get the bell's news where you are: an{" "}
          <a href="https://ntfy.sh" target="_blank" rel="noreferrer">
            ntfy
          </a>{" "}
          topic, a webhook into Home Assistant, Discord or Slack, or push on this device. Each
          channel chooses its events and can keep quiet at night.
        </p>
        {adding ? (
          <ChannelForm channel={null} onDone={() => setAdding(false)} />
        ) : (
          <button type="button" onClick={() => setAdding(true)}>
            Add a Channel
          </button>
        )}
      </article>
      <PushCard />
      {channels.data.length === 0 ? (
        <p className="alert-none">No alert channels yet.</p>
      ) : (
        channels.data.map((ch) => <ChannelCard key={ch.id} channel={ch} />)
      )}
    </div>
  );
}
