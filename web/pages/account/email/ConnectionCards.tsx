/**
 * The connection part of the Email Configuration tab (docs/screens.md): the connected status box with
 * Disconnect, the provider chooser, and the 'Email Authorization Expired' warning.
 */
import { useState } from "react";
import type { EmailSettings, UserData } from "../../../../src/contract/user.ts";
import { ConfirmDialog } from "../../../components/Dialog.tsx";
import { MailboxStatusBadge } from "../../../components/mailbox/MailboxStatusBadge.tsx";
import { ReconnectOffer } from "../../../components/mailbox/ReconnectOffer.tsx";
import { useNow } from "../../../components/orders/useNow.ts";
import { useDisconnectEmail, useMailboxStatus } from "../../../hooks/useMailbox.ts";
import { errorMessage } from "../../../lib/api.ts";
import { formatRelativeTime } from "../../../lib/format.ts";
import { toast, toastError } from "../../../lib/toast.tsx";

export const SOON_PROVIDERS = ["Outlook", "Yahoo", "iCloud", "Other providers"] as const;

export function ConnectedBox(props: { user: UserData; settings: EmailSettings; timeZone: string }) {
  const { user, settings, timeZone } = props;
  const now = useNow();
  const { data: status, isError } = useMailboxStatus(true);
  const disconnect = useDisconnectEmail();
  const [confirming, setConfirming] = useState(false);
  const last = status?.lastProcessedTime ?? user.lastprocessedtime;
  const scanned = status?.emailsScanned ?? user.emailsscanned;
  const showError =
    status?.lastError && status.status !== "disconnected" && status.status !== "polling";

  return (
    <article className="mailbox-connected" aria-labelledby="mailbox-connected-title">
      <header className="card-head">
        <h2 id="mailbox-connected-title">Email Connection</h2>
        <MailboxStatusBadge
          state={
            status?.reconnecting
              ? "reconnecting"
              : (status?.status ?? (isError ? "disconnected" : "unknown"))
          }
        />
      </header>
      <div className="mailbox-status-box">
        <span className="provider-mark provider-mark-gmail" aria-hidden="true">
          G
        </span>
        <dl className="mailbox-facts">
          <div>
            <dt>Gmail address</dt>
            <dd className="mailbox-address">{settings.emailAddress ?? "—"}</dd>
          </div>
          <div>
            <dt>Last processed</dt>
            <dd>{formatRelativeTime(last, now, timeZone)}</dd>
          </div>
          <div>
            <dt>Emails scanned</dt>
            <dd>{scanned}</dd>
          </div>
        </dl>
        <button
          type="button"
          className="danger outline mailbox-disconnect"
          disabled={disconnect.isPending}
          aria-busy={disconnect.isPending || undefined}
          onClick={() => setConfirming(true)}
        >
          Disconnect
        </button>
      </div>
      {showError && <p className="mailbox-error">{status.lastError}</p>}
      {status && <ReconnectOffer status={status} timeZone={timeZone} />}
      <ConfirmDialog
        open={confirming}
        title="Disconnect Gmail?"
        message={`Grapevine stops reading ${settings.emailAddress ?? "your mailbox"} and forgets its credentials. Your orders stay. You can connect again at any time.`}
        confirmLabel="Disconnect"
        busy={disconnect.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          disconnect.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              toast({ title: "Disconnected", variant: "success" });
            },
            onError: (err) => {
              setConfirming(false);
              toastError(err, errorMessage(err, "Failed to disconnect email account"));
            },
          })
        }
      />
    </article>
  );
}

export function ProviderChooser({ onGmail }: { onGmail: () => void }) {
  return (
    <article className="provider-chooser" aria-labelledby="provider-chooser-title">
      <header>
        <h2 id="provider-chooser-title">Connect your email</h2>
        <p>
          Grapevine finds your Vine orders in Amazon's emails. Choose your email provider to connect
          it.
        </p>
      </header>
      <div className="provider-grid">
        <button type="button" className="provider-option" onClick={onGmail}>
          <span className="provider-mark provider-mark-gmail" aria-hidden="true">
            G
          </span>
          <span className="provider-name">Gmail</span>
        </button>
        {SOON_PROVIDERS.map((p) => (
          <button
            key={p}
            type="button"
            className="provider-option provider-soon"
            aria-disabled="true"
            onClick={() =>
              toast({
                title: "Coming Soon",
                description: `${p} integration will be available in a future update.`,
              })
            }
          >
            <span className="provider-mark" aria-hidden="true">
              {p === "Other providers" ? "@" : p[0]}
            </span>
            <span className="provider-name">{p}</span>
            <span className="soon-badge">Soon</span>
          </button>
        ))}
      </div>
    </article>
  );
}

export function ExpiredWarning(props: { emailAddress: string | null; onReconnect: () => void }) {
  return (
    <article className="mailbox-expired" aria-labelledby="mailbox-expired-title">
      {/* An article may not be an alert (ARIA in HTML): the alert is its content. */}
      <div role="alert">
        <h2 id="mailbox-expired-title">Email Authorization Expired</h2>
        <p>
          Gmail no longer accepts Grapevine's authorization
          {props.emailAddress ? ` for ${props.emailAddress}` : ""}, so new Amazon emails are not
          being read. Please reconnect your Gmail account to resume tracking your orders.
        </p>
        <button type="button" onClick={props.onReconnect}>
          Reconnect Gmail
        </button>
      </div>
    </article>
  );
}
