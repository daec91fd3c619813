/** The mailbox state as a small coloured badge with friendly words (docs/behaviour.md#states-and-transitions Mailbox status). */
import type { MailboxState } from "../../../src/contract/constants.ts";
import { MAILBOX_STATE_LABELS } from "../../hooks/useMailbox.ts";
import "../../styles/mailbox-status.css";

export type BadgeState = MailboxState | "expired" | "not-connected" | "unknown" | "reconnecting";

const EXTRA_LABELS: Record<Exclude<BadgeState, MailboxState>, string> = {
  expired: "Authorization expired",
  "not-connected": "Not connected",
  unknown: "Checking…",
  reconnecting: "Reconnecting…",
};

export function mailboxStateLabel(state: BadgeState): string {
  return state in MAILBOX_STATE_LABELS
    ? MAILBOX_STATE_LABELS[state as MailboxState]
    : EXTRA_LABELS[state as Exclude<BadgeState, MailboxState>];
}

export function MailboxStatusBadge({ state }: { state: BadgeState }) {
  return (
    <span className={`mailbox-badge mailbox-badge-${state}`} data-state={state}>
      <span className="mailbox-dot" aria-hidden="true" />
      {mailboxStateLabel(state)}
    </span>
  );
}
