/** One alert channel: where it sends, its events, Send Test / Edit / Delete, its last deliveries. */
import { useState } from "react";
import type { AlertChannel } from "../../../../src/contract/alerts.ts";
import { ConfirmDialog } from "../../../components/Dialog.tsx";
import { useDeleteAlertChannel, useTestAlertChannel } from "../../../hooks/useAlerts.ts";
import { useTimeZone } from "../../../hooks/useTimeZone.ts";
import { type T, useT } from "../../../i18n/index.ts";
import { formatDateOnly, formatTimeOnly } from "../../../lib/format.ts";
import { ChannelForm } from "./ChannelForm.tsx";
import { alertEventLabel, describeTarget } from "./channel-draft.ts";
import { deliveryResult, pausedNotice } from "./delivery-text.ts";

const typeLabel = (t: T, type: AlertChannel["type"]) =>
  type === "ntfy"
    ? "ntfy"
    : type === "webhook"
      ? t("alerts.type.webhook")
      : t("alerts.type.webpush");

export function ChannelCard(props: { channel: AlertChannel }) {
  const t = useT();
  const ch = props.channel;
  const zone = useTimeZone();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const test = useTestAlertChannel();
  const remove = useDeleteAlertChannel();
  const state = ch.paused ? "paused" : ch.enabled ? "on" : "off";
  const stateLabel =
    state === "paused"
      ? t("alerts.state.paused")
      : state === "on"
        ? t("alerts.state.on")
        : t("alerts.state.off");
  return (
    <article className="alert-channel" aria-label={ch.name} data-channel-id={ch.id}>
      <header>
        <div>
          <h3>{ch.name}</h3>
          <small>
            {typeLabel(t, ch.type)} · {describeTarget(ch)}
          </small>
        </div>
        <span className={`alert-state alert-state-${state}`}>{stateLabel}</span>
      </header>
      {ch.paused && (
        <p className="alert-paused" role="status">
          {pausedNotice(ch.paused)}
        </p>
      )}
      {editing ? (
        <ChannelForm channel={ch} onDone={() => setEditing(false)} />
      ) : (
        <>
          <p className="alert-summary">
            {ch.events.length === 0
              ? t("alerts.noEvents")
              : ch.events.map((e) => alertEventLabel(e)).join(t("alerts.listSeparator"))}
            {ch.quietHours && (
              <>
                <br />
                {t("alerts.quietHours", { start: ch.quietHours.start, end: ch.quietHours.end })}
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
              {t("alerts.sendTest")}
            </button>
            <button type="button" className="outline secondary" onClick={() => setEditing(true)}>
              {t("common.edit")}
            </button>
            <button type="button" className="outline contrast" onClick={() => setConfirm(true)}>
              {t("common.delete")}
            </button>
          </div>
        </>
      )}
      <details className="alert-deliveries" open={ch.deliveries.length > 0 || undefined}>
        <summary>{t("alerts.deliveries")}</summary>
        {ch.deliveries.length === 0 ? (
          <p>{t("alerts.deliveries.none")}</p>
        ) : (
          <div className="overflow-auto">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("alerts.deliveries.time")}</th>
                  <th scope="col">{t("alerts.deliveries.event")}</th>
                  <th scope="col">{t("alerts.deliveries.result")}</th>
                </tr>
              </thead>
              <tbody>
                {ch.deliveries.map((d) => (
                  <tr key={d.id} className={`delivery-${d.status}`}>
                    {/* The day and the time each on one line: a phone's narrow column
                        never breaks "27. Nov. 2026" apart. */}
                    <td className="delivery-time">
                      <span>{formatDateOnly(d.at, zone)}</span>{" "}
                      <span>{formatTimeOnly(d.at, zone)}</span>
                    </td>
                    <td>
                      {d.event === "test" ? t("alerts.deliveries.test") : alertEventLabel(d.event)}
                    </td>
                    <td>{deliveryResult(d)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
      <ConfirmDialog
        open={confirm}
        title={t("alerts.delete.title")}
        message={t("alerts.delete.text", { name: ch.name })}
        confirmLabel={t("common.delete")}
        busy={remove.isPending}
        onConfirm={() => remove.mutate(ch.id, { onSuccess: () => setConfirm(false) })}
        onCancel={() => setConfirm(false)}
      />
    </article>
  );
}
