/**
 * The offers of docs/screens.md, docs/behaviour.md#states-and-transitions: a manual reconnect while the mailbox is disconnected, a retry to
 * real-time monitoring while it is polling. Both are rate limited by the server, whose words
 * (remaining attempts, when the next attempt is allowed) are shown. Failures are only logged.
 */
import type { MailboxAction, MailboxStatus } from "../../../src/contract/mailbox.ts";
import { useManualReconnect, useRetryIdle } from "../../hooks/useMailbox.ts";
import { useT } from "../../i18n/index.ts";
import { formatDate } from "../../lib/format.ts";
import { mailboxErrorText, serverSentence } from "../../lib/server-text.ts";
import "../../styles/mailbox-status.css";

export function ReconnectOffer({ status, timeZone }: { status: MailboxStatus; timeZone?: string }) {
  const t = useT();
  const reconnect = useManualReconnect();
  const retry = useRetryIdle();
  if (status.status === "disconnected" && status.manualReconnect.buttonState !== "hidden") {
    return (
      <Offer
        kind="reconnect"
        text={mailboxErrorText(status) ?? t("mailbox.offer.lost")}
        action={status.manualReconnect}
        label={t("mailbox.offer.reconnect")}
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
        text={mailboxErrorText(status) ?? t("mailbox.offer.polling")}
        action={status.idleRetry}
        label={t("mailbox.offer.retry")}
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
  const t = useT();
  return (
    <section className={`mailbox-offer mailbox-offer-${props.kind}`} aria-label={props.label}>
      <div className="mailbox-offer-body">
        <p className="mailbox-offer-text">{props.text}</p>
        {props.autoNext && (
          <small className="mailbox-offer-note mailbox-offer-auto">
            {t("mailbox.offer.nextAuto", { time: formatDate(props.autoNext, props.timeZone) })}
          </small>
        )}
        {action.message && (
          <small className="mailbox-offer-note">
            {serverSentence(action.messageCode, action.messageValues, action.message)}
          </small>
        )}
        {action.nextAttemptTime && (
          <small className="mailbox-offer-note">
            {t("mailbox.offer.nextAttempt", {
              time: formatDate(action.nextAttemptTime, props.timeZone),
            })}
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
