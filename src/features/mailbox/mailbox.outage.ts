/**
 * The admin's "Mailbox supervisor failing" alert: a user's supervisor that has not
 * managed to connect for `failingAfterMs` (default 30 minutes) of failed attempts. One notice per
 * outage: it is sent at the first failed attempt past the threshold, and again only after a
 * connection worked (the outage healed) and a new outage lasted that long. A single blip never
 * reaches the admin. A stopped supervisor (Disconnect, expired credentials: the user is told
 * themselves) ends its outage without a notice. In memory: a restart starts counting afresh.
 */
import type { TextPart } from "../../contract/text.ts";
import type { SupervisorSnapshot } from "../../mail/imap/supervisor.ts";
import {
  type MessagePart,
  type MessageValue,
  type NotificationMessage,
  part,
  yesNo,
} from "../notifications/message.ts";

export const SUPERVISOR_FAILING_AFTER_MS = 30 * 60_000;

/**
 * A server text (the mailbox's last error: `mailbox.server.*` with its values) as a message said
 * in the reader's language. A value that looks like a key (letters and digits) goes in as it is,
 * so it also works as a `select`'s key; any other stays text (escaped); a list is a list.
 */
export function textMessage(t: TextPart): MessagePart {
  const values: Record<string, MessageValue> = {};
  for (const [name, value] of Object.entries(t.values ?? {})) {
    values[name] = Array.isArray(value)
      ? value.map(textMessage)
      : typeof value === "string" && /^[A-Za-z][A-Za-z0-9]*$/.test(value)
        ? { choice: value }
        : value;
  }
  return part(t.code, values);
}

/**
 * `lastErrorText`: the error as a server text (the supervisor's `lastErrorText`), said in the
 * admin's language; without one (words that are not ours) `lastError` as it came.
 */
export function supervisorFailingNotice(o: {
  userId: number;
  emailAddress: string | null;
  minutes: number;
  lastError: string | null;
  lastErrorText?: TextPart | null;
}): NotificationMessage {
  return [
    part(
      "server.mailbox.supervisorFailing",
      {
        user: String(o.userId),
        hasAddress: yesNo(o.emailAddress),
        address: o.emailAddress ?? "",
        minutes: o.minutes,
        hasError: yesNo(o.lastError),
        error:
          o.lastError && o.lastErrorText ? [textMessage(o.lastErrorText)] : (o.lastError ?? ""),
      },
      "/admin/logs",
    ),
  ];
}

export function createOutageWatch(deps: {
  now: () => Date;
  failingAfterMs: number;
  /** Tells the admin (one call per outage). Must not throw for the watch to re-arm correctly. */
  alert: (userId: number, snap: SupervisorSnapshot, failingForMs: number) => void;
}) {
  /** Users whose supervisor is failing: since when, and whether the admin was told. */
  const outages = new Map<number, { since: number; alerted: boolean }>();

  return {
    /** Every state change of a user's supervisor. */
    observe(userId: number, snap: SupervisorSnapshot) {
      const working =
        snap.status === "connected" || snap.status === "idle" || snap.status === "polling";
      if (working || !snap.running) {
        outages.delete(userId);
        return;
      }
      // Only a failed attempt counts (not "connecting", which comes before each try).
      if (snap.status !== "disconnected" || !snap.reconnecting) return;
      const t = deps.now().getTime();
      let o = outages.get(userId);
      if (!o) {
        o = { since: t, alerted: false };
        outages.set(userId, o);
      }
      if (o.alerted || t - o.since < deps.failingAfterMs) return;
      o.alerted = true;
      deps.alert(userId, snap, t - o.since);
    },
    /** The supervisor was stopped (Disconnect, account deleted). */
    forget(userId: number) {
      outages.delete(userId);
    },
  };
}
