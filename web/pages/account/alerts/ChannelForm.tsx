/** The add / edit form of an alert channel; its rules are in `channel-draft.ts`. */
import { type FormEvent, useState } from "react";
import { ALERT_EVENT_LABELS, type WebhookFormat } from "../../../../src/contract/alert-events.ts";
import type { AlertChannel } from "../../../../src/contract/alerts.ts";
import { Check, Field, InputField, SelectField } from "../../../components/Field.tsx";
import { useCreateAlertChannel, useUpdateAlertChannel } from "../../../hooks/useAlerts.ts";
import { isAdmin, useAuth } from "../../../lib/auth.tsx";
import {
  createBody,
  type Draft,
  draftOf,
  FORMAT_LABELS,
  type NtfyAccess,
  requiredFields,
  toggleEvent,
  updateBody,
  userEvents,
} from "./channel-draft.ts";

const ACCESS_OPTIONS = [
  { value: "none", label: "None (public topic)" },
  { value: "token", label: "Access token" },
  { value: "password", label: "User name and password" },
];
const FORMAT_OPTIONS = (Object.keys(FORMAT_LABELS) as WebhookFormat[]).map((f) => ({
  value: f,
  label: FORMAT_LABELS[f],
}));

type Edit = { d: Draft; set: (patch: Partial<Draft>) => void; busy: boolean };

export function ChannelForm(props: { channel: AlertChannel | null; onDone: () => void }) {
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
  const edit = { d, set, busy };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!ch) create.mutate(createBody(d), { onSuccess: props.onDone });
    else update.mutate({ id: ch.id, body: updateBody(d, ch) }, { onSuccess: props.onDone });
  }

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
            <Check
              key={t}
              kind="radio"
              name={`${idp}-type`}
              checked={d.type === t}
              onChecked={() => set({ type: t })}
              label={t === "ntfy" ? "ntfy" : "Webhook (Home Assistant, Discord, Slack)"}
            />
          ))}
        </fieldset>
      )}
      <Field
        label={
          <>
            Name <small>(optional)</small>
          </>
        }
        control={(a) => (
          <input
            {...a}
            value={d.name}
            maxLength={60}
            onChange={(e) => set({ name: e.currentTarget.value })}
            disabled={busy}
          />
        )}
      />
      {type === "ntfy" && <NtfyFields {...edit} channel={ch} idp={idp} />}
      {type === "webhook" && <WebhookFields {...edit} channel={ch} idp={idp} />}
      <fieldset className="alert-events">
        <legend>Send alerts for</legend>
        {userEvents(admin).map((ev) => (
          <Check
            key={ev}
            checked={d.events.includes(ev)}
            disabled={busy}
            onChecked={(on) => set({ events: toggleEvent(d.events, ev, on) })}
            label={ALERT_EVENT_LABELS[ev]}
          />
        ))}
      </fieldset>
      <QuietHours {...edit} />
      {ch && (
        <Check
          kind="switch"
          checked={d.enabled}
          disabled={busy}
          onChecked={(enabled) => set({ enabled })}
          label={ch.paused ? "On (saving resumes the paused channel)" : "On"}
        />
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

const keepSaved = (ch: AlertChannel | null) =>
  ch ? "Leave empty to keep the saved one" : undefined;

function NtfyFields({ d, set, busy, channel: ch, idp }: Edit & ChannelIds) {
  const keep = keepSaved(ch);
  const required = requiredFields(Boolean(ch));
  return (
    <>
      <div className="grid">
        <InputField
          label="ntfy server"
          type="url"
          value={d.serverUrl}
          required={required.serverUrl}
          onValue={(serverUrl) => set({ serverUrl })}
          disabled={busy}
        />
        <InputField
          label="Topic"
          value={d.topic}
          required={required.topic}
          placeholder={ch ? `${ch.ntfy?.topic} (${keep?.toLowerCase()})` : "e.g. grapevine-8f3k2"}
          onValue={(topic) => set({ topic })}
          disabled={busy}
        />
      </div>
      <SelectField
        layout="stack"
        id={`${idp}-access`}
        label="Access"
        value={d.access}
        onValue={(access) => set({ access: access as NtfyAccess })}
        disabled={busy}
        options={ACCESS_OPTIONS}
      />
      {d.access === "token" && (
        <InputField
          label="Access token"
          type="password"
          autoComplete="off"
          value={d.token}
          placeholder={ch?.ntfy?.token ? `${ch.ntfy.token} — ${keep}` : "tk_…"}
          onValue={(token) => set({ token })}
          disabled={busy}
        />
      )}
      {d.access === "password" && (
        <div className="grid">
          <InputField
            label="User name"
            autoComplete="off"
            value={d.username}
            onValue={(username) => set({ username })}
            disabled={busy}
          />
          <InputField
            label="Password"
            type="password"
            autoComplete="new-password"
            value={d.password}
            placeholder={ch?.ntfy?.auth === "password" ? keep : undefined}
            onValue={(password) => set({ password })}
            disabled={busy}
          />
        </div>
      )}
    </>
  );
}

type ChannelIds = { channel: AlertChannel | null; idp: string };

function WebhookFields({ d, set, busy, channel: ch, idp }: Edit & ChannelIds) {
  return (
    <div className="grid">
      <InputField
        label="Webhook URL"
        type="url"
        autoComplete="off"
        value={d.url}
        required={requiredFields(Boolean(ch)).url}
        placeholder={
          ch
            ? `${ch.webhook?.url} — ${keepSaved(ch)}`
            : "http://homeassistant.local:8123/api/webhook/…"
        }
        onValue={(url) => set({ url })}
        disabled={busy}
      />
      <SelectField
        layout="stack"
        className=""
        id={`${idp}-format`}
        label="Format"
        value={d.format}
        onValue={(format) => set({ format: format as WebhookFormat })}
        disabled={busy}
        options={FORMAT_OPTIONS}
      />
    </div>
  );
}

function QuietHours({ d, set, busy }: Edit) {
  return (
    <fieldset>
      <Check
        kind="switch"
        checked={d.quiet}
        disabled={busy}
        onChecked={(quiet) => set({ quiet })}
        label="Quiet hours (alerts wait and arrive as one summary when they end)"
      />
      {d.quiet && (
        <div className="grid">
          <InputField
            label="From"
            type="time"
            value={d.quietStart}
            required={requiredFields(false).quietTimes}
            onValue={(quietStart) => set({ quietStart })}
            disabled={busy}
          />
          <InputField
            label="Until"
            type="time"
            value={d.quietEnd}
            required={requiredFields(false).quietTimes}
            onValue={(quietEnd) => set({ quietEnd })}
            disabled={busy}
          />
        </div>
      )}
    </fieldset>
  );
}
