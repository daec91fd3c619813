/**
 * Account Settings → Alerts: the user's alert channels (ntfy, webhooks, Web Push), what
 * each one sends and when (events, quiet hours), a test button that says what the far side
 * answered, each channel's last deliveries, and "Enable push on this device". The form, a
 * channel's card, the push card and the form's rules are in `alerts/`.
 */
import { Trans } from "@lingui/react";
import { useState } from "react";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useAlertChannels } from "../../hooks/useAlerts.ts";
import { useT } from "../../i18n/index.ts";
import "../../styles/alerts.css";
import { ChannelCard } from "./alerts/ChannelCard.tsx";
import { ChannelForm } from "./alerts/ChannelForm.tsx";
import { PushCard } from "./alerts/PushCard.tsx";
import { NewTabLink } from "./NewTabLink.tsx";

export function AlertsTab() {
  const t = useT();
  const channels = useAlertChannels();
  const [adding, setAdding] = useState(false);
  if (channels.isLoading) return <article aria-busy="true" aria-label={t("alerts.loading")} />;
  if (channels.isError || !channels.data) {
    return <LoadFailed message={t("alerts.loadFailed")} onRetry={channels.refetch} />;
  }
  return (
    <div className="alerts-tab">
      <article>
        <header>
          <h2>{t("alerts.title")}</h2>
        </header>
        <p>
          <Trans id="alerts.intro" components={{ 0: <NewTabLink href="https://ntfy.sh" /> }} />
        </p>
        {adding ? (
          <ChannelForm channel={null} onDone={() => setAdding(false)} />
        ) : (
          <button type="button" onClick={() => setAdding(true)}>
            {t("alerts.addChannel")}
          </button>
        )}
      </article>
      <PushCard />
      {channels.data.length === 0 ? (
        <p className="alert-none">{t("alerts.none")}</p>
      ) : (
        channels.data.map((ch) => <ChannelCard key={ch.id} channel={ch} />)
      )}
    </div>
  );
}
