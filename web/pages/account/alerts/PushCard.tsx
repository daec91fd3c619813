/** "Enable push on this device": this browser's push subscription as an alert channel. */
import { pushUnsupportedReason, useEnablePush } from "../../../hooks/useAlerts.ts";

export function PushCard() {
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
