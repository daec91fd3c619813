/** The mailbox state as a small coloured badge with friendly words (docs/behaviour.md#states-and-transitions Mailbox status). */
import type { MailboxState } from "../../../src/contract/constants.ts";
import { mailboxStateWords } from "../../hooks/useMailbox.ts";
import { translate, useT } from "../../i18n/index.ts";
import "../../styles/mailbox-status.css";

export type BadgeState = MailboxState | "expired" | "not-connected" | "unknown" | "reconnecting";

export function mailboxStateLabel(state: BadgeState): string {
  switch (state) {
    case "expired":
      return translate("mailbox.state.expired");
    case "not-connected":
      return translate("mailbox.state.notConnected");
    case "unknown":
      return translate("mailbox.state.unknown");
    case "reconnecting":
      return translate("mailbox.state.reconnecting");
    default:
      return mailboxStateWords(state as MailboxState);
  }
}

export function MailboxStatusBadge({ state }: { state: BadgeState }) {
  useT(); // re-rendered in a new language
  return (
    <span className={`mailbox-badge mailbox-badge-${state}`} data-state={state}>
      <span className="mailbox-dot" aria-hidden="true" />
      {mailboxStateLabel(state)}
    </span>
  );
}
