/** One alert channel: where it sends, its events, Send Test / Edit / Delete, its last deliveries. */
import { useState } from "react";
import { ALERT_EVENT_LABELS } from "../../../../src/contract/alert-events.ts";
import type { AlertChannel } from "../../../../src/contract/alerts.ts";
import { ConfirmDialog } from "../../../components/Dialog.tsx";
import { useDeleteAlertChannel, useTestAlertChannel } from "../../../hooks/useAlerts.ts";
import { useTimeZone } from "../../../hooks/useTimeZone.ts";
import { formatDate } from "../../../lib/format.ts";
import { ChannelForm } from "./ChannelForm.tsx";
import { describeTarget } from "./channel-draft.ts";

const TYPE_LABELS = { ntfy: "ntfy", webhook: "Webhook", webpush: "Push on a device" } as const;

export function ChannelCard(props: { channel: AlertChannel }) {
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
