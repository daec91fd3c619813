/**
 * The mailbox supervisors: one per connected user (src/mail/imap/supervisor.ts, run by the
 * manager of src/mail/imap/manager.ts), each given what it needs (connect, settings, the folder
 * sync with the ingestion port), and the outage watch that tells the admin once per outage when
 * one fails to connect for a long time.
 */
import type { ImapFlow } from "imapflow";
import type { EventBus } from "../../events/bus.ts";
import type { Logger } from "../../log.ts";
import type { ImapError } from "../../mail/imap/client.ts";
import { createMailSync } from "../../mail/imap/folder-sync.ts";
import { createMailboxManager } from "../../mail/imap/manager.ts";
import type { FetchLimits } from "../../mail/imap/ports.ts";
import {
  createSupervisor,
  type SupervisorTimers,
  type SupervisorTimings,
} from "../../mail/imap/supervisor.ts";
import { ADMIN_USER_ID } from "../auth/auth.service.ts";
import type { NotificationsService } from "../notifications/notifications.service.ts";
import type { MailboxIngest } from "./mailbox.backfill.ts";
import type { MailboxConnections } from "./mailbox.connection.ts";
import {
  createOutageWatch,
  SUPERVISOR_FAILING_AFTER_MS,
  supervisorFailingNotice,
} from "./mailbox.outage.ts";
import type { MailboxRepo } from "./mailbox.repo.ts";

export function createSupervisors(deps: {
  repo: MailboxRepo;
  events: EventBus;
  notifications: Pick<NotificationsService, "notify">;
  ingest: MailboxIngest;
  log: Logger;
  userLog: (userId: number) => Logger;
  now: () => Date;
  timings: SupervisorTimings;
  fetchLimits: FetchLimits;
  domains: readonly string[];
  connections: Pick<MailboxConnections, "connectFor" | "settingsOf">;
  onAuthFailure: (userId: number, err: ImapError) => void;
  /** Test hook: replaces IDLE (resolve false to make it fail). */
  startIdle?: (userId: number, client: ImapFlow) => Promise<boolean | undefined>;
  /** Test hook: the supervisors' timers. */
  timers?: SupervisorTimers;
  supervisorFailingAfterMs?: number;
}) {
  const { repo, events, log, userLog, now, timings, fetchLimits, domains } = deps;
  const { connectFor, settingsOf } = deps.connections;

  /** A supervisor failing to connect for a long time: one notice to the admin per outage. */
  const outages = createOutageWatch({
    now,
    failingAfterMs: deps.supervisorFailingAfterMs ?? SUPERVISOR_FAILING_AFTER_MS,
    alert(userId, snap, failingForMs) {
      const minutes = Math.floor(failingForMs / 60_000);
      userLog(userId).error(
        { minutes, lastError: snap.lastError },
        "mailbox supervisor failing: the admin is notified",
      );
      try {
        deps.notifications.notify(
          ADMIN_USER_ID,
          "critical",
          supervisorFailingNotice({
            userId,
            emailAddress: repo.findAccount(userId)?.emailAddress ?? null,
            minutes,
            lastError: snap.lastError,
            lastErrorText: snap.lastErrorText,
          }),
          { event: "mailbox_supervisor_failing" },
        );
      } catch (err) {
        log.error({ err }, "could not notify the admin about a failing mailbox supervisor");
      }
    },
  });

  const manager = createMailboxManager({
    log,
    connectedUsers: () => repo.connectedUserIds(),
    create: (userId) =>
      createSupervisor({
        userId,
        log: userLog(userId).child({ scope: "mailbox" }),
        timings,
        settings: () => settingsOf(userId),
        connect: () => connectFor(userId, "watch"),
        sync: createMailSync({
          userId,
          store: {
            get: (u, f) => repo.getFolderState(u, f),
            set: (u, f, v, l) => repo.setFolderState(u, f, v, l),
          },
          ingest: deps.ingest,
          limits: fetchLimits,
          domains: () => domains,
          log: userLog(userId),
          now,
        }),
        onChange: (snap) => {
          events.publish(userId, "mailbox.status");
          outages.observe(userId, snap);
        },
        onAuthFailure: (err) => deps.onAuthFailure(userId, err),
        startIdle: deps.startIdle ? (c) => deps.startIdle!(userId, c) : undefined,
        timers: deps.timers,
      }),
  });

  return { manager, outages };
}
