/** "Enable push on this device": this browser's push subscription as an alert channel. */
import { pushUnsupportedReason, useEnablePush } from "../../../hooks/useAlerts.ts";
import { useT } from "../../../i18n/index.ts";

export function PushCard() {
  const t = useT();
  const enable = useEnablePush();
  const reason = pushUnsupportedReason();
  return (
    <article className="alert-push">
      <h3>{t("alerts.push.title")}</h3>
      <p>{t("alerts.push.text")}</p>
      {reason && <p className="alert-paused">{reason}</p>}
      <button
        type="button"
        disabled={Boolean(reason) || enable.isPending}
        aria-busy={enable.isPending || undefined}
        onClick={() => enable.mutate()}
      >
        {t("alerts.push.enable")}
      </button>
    </article>
  );
}
