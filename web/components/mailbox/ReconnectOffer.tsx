/**
 * The offers of docs/screens.md, docs/behaviour.md#states-and-transitions: a manual reconnect while the mailbox is disconnected, a retry to
 * real-time monitoring while it is polling. Both are rate limited by the server, whose words
 * (remaining attempts, when the next attempt is allowed) are shown. Failures are only logged.
 */
import type { MailboxAction, MailboxStatus } from "../../../src/contract/mailbox.ts";
import { useManualReconnect, useRetryIdle } from "../../hooks/useMailbox.ts";
import { formatDate } from "../../lib/format.ts";
import "../../styles/mailbox-status.css";

export function ReconnectOffer({ status, timeZone }: { status: MailboxStatus; timeZone?: string }) {
  const reconnect = useManualReconnect();
  const retry = useRetryIdle();
  if (status.status === "disconnected" && status.manualReconnect.buttonState !== "hidden") {
    return (
      <Offer
        kind="reconnect"
        text={status.lastError ?? "The connection to your mailbox was lost."}
        action={status.manualReconnect}
        label="Reconnect"
        autoNext={status.nextAttemptTime}
        busy={reconnect.isPending}
        onClick={() => reconnect.mutate()}
        timeZone={timeZone}
      />
    );
  }
  if (status.status === "polling" && status.idleRetry.buttonState !== "hidden") {
    return (
      <Offer
        kind="retry"
        text={
          status.lastError ??
          "Real-time monitoring is unavailable: new mail is checked every 5 minutes."
        }
        action={status.idleRetry}
        label="Retry real-time monitoring"
        busy={retry.isPending}
        onClick={() => retry.mutate()}
        timeZone={timeZone}
      />
    );
  }
  return null;
}

function Offer(props: {
  kind: "reconnect" | "retry";
  text: string;
  action: MailboxAction;
  label: string;
  /** When the server tries again by itself (after a fault), if it will. */
  autoNext?: string | null;
  busy: boolean;
  onClick: () => void;
  timeZone?: string;
}) {
  const { action } = props;
  return (
    <section className={`mailbox-offer mailbox-offer-${props.kind}`} aria-label={props.label}>
      <div className="mailbox-offer-body">
        <p className="mailbox-offer-text">{props.text}</p>
        {props.autoNext && (
          <small className="mailbox-offer-note mailbox-offer-auto">
            Next automatic try: {formatDate(props.autoNext, props.timeZone)}
          </small>
        )}
        {action.message && <small className="mailbox-offer-note">{action.message}</small>}
        {action.nextAttemptTime && (
          <small className="mailbox-offer-note">
            Next attempt: {formatDate(action.nextAttemptTime, props.timeZone)}
          </small>
        )}
      </div>
      <button
        type="button"
        className="small outline"
        disabled={!action.available || props.busy}
        aria-busy={props.busy || undefined}
        onClick={props.onClick}
      >
        {props.label}
      </button>
    </section>
  );
}
