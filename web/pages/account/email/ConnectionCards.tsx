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
import { translate, useT } from "../../../i18n/index.ts";
import { errorMessage } from "../../../lib/api.ts";
import { formatRelativeTime } from "../../../lib/format.ts";
import { mailboxErrorText } from "../../../lib/server-text.ts";
import { toast, toastError } from "../../../lib/toast.tsx";

export const SOON_PROVIDERS = ["Outlook", "Yahoo", "iCloud", "Other providers"] as const;

export function ConnectedBox(props: { user: UserData; settings: EmailSettings; timeZone: string }) {
  const { user, settings, timeZone } = props;
  const t = useT();
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
        <h2 id="mailbox-connected-title">{t("email.connection.title")}</h2>
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
            <dt>{t("email.connection.address")}</dt>
            <dd className="mailbox-address">{settings.emailAddress ?? "—"}</dd>
          </div>
          <div>
            <dt>{t("email.connection.lastProcessed")}</dt>
            <dd>{formatRelativeTime(last, now, timeZone)}</dd>
          </div>
          <div>
            <dt>{t("email.connection.scanned")}</dt>
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
          {t("email.disconnect")}
        </button>
      </div>
      {showError && <p className="mailbox-error">{mailboxErrorText(status)}</p>}
      {status && <ReconnectOffer status={status} timeZone={timeZone} />}
      <ConfirmDialog
        open={confirming}
        title={t("email.disconnect.title")}
        message={
          settings.emailAddress
            ? t("email.disconnect.text", { address: settings.emailAddress })
            : t("email.disconnect.textNoAddress")
        }
        confirmLabel={t("email.disconnect")}
        busy={disconnect.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          disconnect.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              toast({ title: translate("email.disconnect.done"), variant: "success" });
            },
            onError: (err) => {
              setConfirming(false);
              toastError(err, errorMessage(err, translate("email.disconnect.failed")));
            },
          })
        }
      />
    </article>
  );
}

export function ProviderChooser({ onGmail }: { onGmail: () => void }) {
  const t = useT();
  return (
    <article className="provider-chooser" aria-labelledby="provider-chooser-title">
      <header>
        <h2 id="provider-chooser-title">{t("email.chooser.title")}</h2>
        <p>{t("email.chooser.text")}</p>
      </header>
      <div className="provider-grid">
        <button type="button" className="provider-option" onClick={onGmail}>
          <span className="provider-mark provider-mark-gmail" aria-hidden="true">
            G
          </span>
          <span className="provider-name">Gmail</span>
        </button>
        {SOON_PROVIDERS.map((p) => {
          const name = p === "Other providers" ? t("email.chooser.otherProviders") : p;
          return (
            <button
              key={p}
              type="button"
              className="provider-option provider-soon"
              aria-disabled="true"
              onClick={() =>
                toast({
                  title: translate("email.chooser.soonTitle"),
                  description:
                    p === "Other providers"
                      ? translate("email.chooser.soonOther")
                      : translate("email.chooser.soonText", { provider: p }),
                })
              }
            >
              <span className="provider-mark" aria-hidden="true">
                {p === "Other providers" ? "@" : p[0]}
              </span>
              <span className="provider-name">{name}</span>
              <span className="soon-badge">{t("email.chooser.soon")}</span>
            </button>
          );
        })}
      </div>
    </article>
  );
}

export function ExpiredWarning(props: { emailAddress: string | null; onReconnect: () => void }) {
  const t = useT();
  return (
    <article className="mailbox-expired" aria-labelledby="mailbox-expired-title">
      {/* An article may not be an alert (ARIA in HTML): the alert is its content. */}
      <div role="alert">
        <h2 id="mailbox-expired-title">{t("email.expired.title")}</h2>
        <p>
          {props.emailAddress
            ? t("email.expired.text", { address: props.emailAddress })
            : t("email.expired.textNoAddress")}
        </p>
        <button type="button" onClick={props.onReconnect}>
          {t("email.expired.reconnect")}
        </button>
      </div>
    </article>
  );
}
