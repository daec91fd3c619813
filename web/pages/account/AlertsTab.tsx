/**
 * Account Settings → Alerts: the user's alert channels (ntfy, webhooks, Web Push), what
 * each one sends and when (events, quiet hours), a test button that says what the far side
 * answered, each channel's last deliveries, and "Enable push on this device". The form, a
 * channel's card, the push card and the form's rules are in `alerts/`.
 */
import { useState } from "react";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useAlertChannels } from "../../hooks/useAlerts.ts";
import "../../styles/alerts.css";
import { ChannelCard } from "./alerts/ChannelCard.tsx";
import { ChannelForm } from "./alerts/ChannelForm.tsx";
import { PushCard } from "./alerts/PushCard.tsx";

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
