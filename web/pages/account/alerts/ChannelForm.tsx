/** The add / edit form of an alert channel; its rules are in `channel-draft.ts`. */
import { type FormEvent, useState } from "react";
import { WEBHOOK_FORMATS, type WebhookFormat } from "../../../../src/contract/alert-events.ts";
import type { AlertChannel } from "../../../../src/contract/alerts.ts";
import { Check, Field, InputField, SelectField } from "../../../components/Field.tsx";
import { useCreateAlertChannel, useUpdateAlertChannel } from "../../../hooks/useAlerts.ts";
import { type T, useT } from "../../../i18n/index.ts";
import { isAdmin, useAuth } from "../../../lib/auth.tsx";
import {
  alertEventLabel,
  createBody,
  type Draft,
  draftOf,
  formatLabel,
  type NtfyAccess,
  requiredFields,
  toggleEvent,
  updateBody,
  userEvents,
} from "./channel-draft.ts";

const accessOptions = (t: T) => [
  { value: "none", label: t("alerts.access.none") },
  { value: "token", label: t("alerts.access.token") },
  { value: "password", label: t("alerts.access.password") },
];
const formatOptions = () => WEBHOOK_FORMATS.map((f) => ({ value: f, label: formatLabel(f) }));

type Edit = { d: Draft; set: (patch: Partial<Draft>) => void; busy: boolean };

export function ChannelForm(props: { channel: AlertChannel | null; onDone: () => void }) {
  const t = useT();
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
      aria-label={ch ? t("alerts.form.editLabel", { name: ch.name }) : t("alerts.form.addLabel")}
    >
      {!ch && (
        <fieldset>
          <legend>{t("alerts.form.kind")}</legend>
          {(["ntfy", "webhook"] as const).map((kind) => (
            <Check
              key={kind}
              kind="radio"
              name={`${idp}-type`}
              checked={d.type === kind}
              onChecked={() => set({ type: kind })}
              label={kind === "ntfy" ? "ntfy" : t("alerts.form.webhookKind")}
            />
          ))}
        </fieldset>
      )}
      <Field
        label={
          <>
            {t("alerts.form.name")} <small>{t("alerts.form.optional")}</small>
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
        <legend>{t("alerts.form.events")}</legend>
        {userEvents(admin).map((ev) => (
          <Check
            key={ev}
            checked={d.events.includes(ev)}
            disabled={busy}
            onChecked={(on) => set({ events: toggleEvent(d.events, ev, on) })}
            label={alertEventLabel(ev)}
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
          label={ch.paused ? t("alerts.form.onResumes") : t("alerts.form.on")}
        />
      )}
      <div className="alert-form-actions">
        <button type="button" className="secondary" onClick={props.onDone} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" aria-busy={busy || undefined} disabled={busy}>
          {ch ? t("alerts.form.save") : t("alerts.form.add")}
        </button>
      </div>
    </form>
  );
}

const keepSaved = (t: T, ch: AlertChannel | null) => (ch ? t("alerts.form.keepSaved") : undefined);

function NtfyFields({ d, set, busy, channel: ch, idp }: Edit & ChannelIds) {
  const t = useT();
  const keep = keepSaved(t, ch);
  const required = requiredFields(Boolean(ch));
  return (
    <>
      <div className="grid">
        <InputField
          label={t("alerts.form.ntfyServer")}
          type="url"
          value={d.serverUrl}
          required={required.serverUrl}
          onValue={(serverUrl) => set({ serverUrl })}
          disabled={busy}
        />
        <InputField
          label={t("alerts.form.topic")}
          value={d.topic}
          required={required.topic}
          placeholder={
            ch
              ? t("alerts.form.topicKeep", { topic: ch.ntfy?.topic ?? "" })
              : t("alerts.form.topicExample", { example: "grapevine-8f3k2" })
          }
          onValue={(topic) => set({ topic })}
          disabled={busy}
        />
      </div>
      <SelectField
        layout="stack"
        id={`${idp}-access`}
        label={t("alerts.form.access")}
        value={d.access}
        onValue={(access) => set({ access: access as NtfyAccess })}
        disabled={busy}
        options={accessOptions(t)}
      />
      {d.access === "token" && (
        <InputField
          label={t("alerts.access.token")}
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
            label={t("alerts.form.userName")}
            autoComplete="off"
            value={d.username}
            onValue={(username) => set({ username })}
            disabled={busy}
          />
          <InputField
            label={t("alerts.form.password")}
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
  const t = useT();
  return (
    <div className="grid">
      <InputField
        label={t("alerts.form.webhookUrl")}
        type="url"
        autoComplete="off"
        value={d.url}
        required={requiredFields(Boolean(ch)).url}
        placeholder={
          ch
            ? `${ch.webhook?.url} — ${keepSaved(t, ch)}`
            : "http://homeassistant.local:8123/api/webhook/…"
        }
        onValue={(url) => set({ url })}
        disabled={busy}
      />
      <SelectField
        layout="stack"
        className=""
        id={`${idp}-format`}
        label={t("alerts.form.format")}
        value={d.format}
        onValue={(format) => set({ format: format as WebhookFormat })}
        disabled={busy}
        options={formatOptions()}
      />
    </div>
  );
}

function QuietHours({ d, set, busy }: Edit) {
  const t = useT();
  return (
    <fieldset>
      <Check
        kind="switch"
        checked={d.quiet}
        disabled={busy}
        onChecked={(quiet) => set({ quiet })}
        label={t("alerts.form.quietHours")}
      />
      {d.quiet && (
        <div className="grid">
          <InputField
            label={t("alerts.form.from")}
            type="time"
            value={d.quietStart}
            required={requiredFields(false).quietTimes}
            onValue={(quietStart) => set({ quietStart })}
            disabled={busy}
          />
          <InputField
            label={t("alerts.form.until")}
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
