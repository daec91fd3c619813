/**
 * Alert channels and their outbox, put together:
 * - alerts.channels.ts: channel CRUD and its rules (ownership, limits, checked targets);
 * - alerts.codec.ts: per channel type, what is stored, shown (masked) and sent to;
 * - alerts.sender.ts: the outbox, the sender loop (retries, pause after a day, quiet-hours
 *   summary; alerts.quiet-hours.ts);
 * - alerts.vapid.ts: the server's Web Push keys and contact;
 * - senders.ts / outgoing.ts: one alert → one checked HTTP request, and its answer → an outcome.
 * Here: the test send (rate-limited per user) and the service's API.
 */
import type { AlertChannelEvent } from "../../contract/events.ts";
import type { AlertTestResult, NotificationLevel } from "../../contract/index.ts";
import type { AlertChannelRow, OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { english, text } from "../../i18n/text.ts";
import { languageOrDefault, translate } from "../../i18n/translate.ts";
import type { Logger } from "../../log.ts";
import { accountPath } from "../../util/app-links.ts";
import { AppError } from "../../util/errors.ts";
import { createRateWindow } from "../../util/rate-window.ts";
import type { Secrets } from "../../util/secrets.ts";
import type { NotificationMessage } from "../notifications/message.ts";
import { createChannels } from "./alerts.channels.ts";
import { targetOf } from "./alerts.codec.ts";
import type { AlertsRepo } from "./alerts.repo.ts";
import { createSender, DELIVERIES_KEPT, resultOf } from "./alerts.sender.ts";
import { createVapid } from "./alerts.vapid.ts";
import type { Resolver, TargetPolicy } from "./outgoing.ts";
import { type AlertPayload, type AlertTarget, deliver, type SendOutcome } from "./senders.ts";

export { vapidSubject } from "./alerts.vapid.ts";

/** Tests (POST …/{id}/test) a user may send per minute: enough to fix a channel, too few to scan. */
export const ALERT_TESTS_PER_MINUTE = 5;

export type AlertsDeps = {
  repo: AlertsRepo;
  secrets: Secrets;
  events: EventBus;
  /** The bell: tells a user their channel was paused (no event kind: never an alert itself). */
  notify: (userId: number, level: NotificationLevel, message: NotificationMessage) => unknown;
  timeZoneOf: (userId: number) => string | null;
  findOrder: (userId: number, orderId: number) => OrderRow | undefined;
  isAdmin: (userId: number) => boolean;
  publicUrl: string | null;
  /** WEB_PUSH_CONTACT: the Web Push (VAPID) contact when PUBLIC_URL is not a public https one. */
  webPushContact?: string | null;
  /** ALERTS_ALLOW_LOOPBACK: alerts may go to loopback and the server's own addresses. */
  allowLoopback: boolean;
  log: Logger;
  now?: () => Date;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** DNS for outgoing requests (tests answer names with the addresses they need). */
  resolve?: Resolver;
};

export function createAlertsService(deps: AlertsDeps) {
  const { repo, secrets, log } = deps;
  const clock = deps.now ?? (() => new Date());
  const policy: TargetPolicy = { allowLoopback: deps.allowLoopback };
  const tests = createRateWindow({
    limit: ALERT_TESTS_PER_MINUTE,
    windowMs: 60_000,
    now: () => clock().getTime(),
  });
  const vapid = createVapid(deps);
  const publishChange = (userId: number, type: AlertChannelEvent) =>
    deps.events.publish(userId, type);

  async function send(row: AlertChannelRow, payload: AlertPayload): Promise<SendOutcome> {
    let target: AlertTarget;
    try {
      target = targetOf(row, secrets);
    } catch {
      const t = text("alerts.server.secretUnreadable");
      return { kind: "give-up", result: english(t), text: t };
    }
    return deliver(target, payload, {
      publicUrl: deps.publicUrl,
      vapid,
      timeoutMs: deps.timeoutMs,
      resolve: deps.resolve,
      policy,
      now: () => clock().getTime(),
    });
  }

  const sender = createSender({ ...deps, clock, send, publishChange });
  const channels = createChannels({ ...deps, policy, publishChange, kick: sender.kick });

  return {
    list: channels.list,
    get: channels.get,
    create: channels.create,
    update: channels.update,
    remove: channels.remove,

    /**
     * POST .../{id}/test: sends now, whatever the quiet hours, and answers the far side's status
     * in a sentence; ALERT_TESTS_PER_MINUTE per user (429 with Retry-After beyond it).
     */
    async test(userId: number, id: number): Promise<AlertTestResult> {
      const row = channels.ownedRow(userId, id);
      const allowed = tests.hit(String(userId));
      if (!allowed.ok) {
        const wait = Math.ceil(allowed.retryAfterMs / 1000);
        throw new AppError(
          429,
          "alert_tests_limit",
          { max: ALERT_TESTS_PER_MINUTE, seconds: wait },
          undefined,
          { "Retry-After": String(wait) },
        );
      }
      const nowIso = clock().toISOString();
      const language = languageOrDefault(repo.languageOf(userId));
      const title = translate(language, "server.alerts.testTitle");
      const outcome = await send(row, {
        event: "test",
        title,
        message: translate(language, "server.alerts.testMessage", { channel: row.name }),
        language,
        path: accountPath("alerts"),
        order: null,
        urgent: false,
        sentAt: nowIso,
      });
      const atIso = clock().toISOString();
      repo.transaction(() => {
        const r = repo.insertOutbox({
          channelId: row.id,
          event: "test",
          title,
          message: "",
          orderJson: null,
          quiet: false,
          nextAttemptAt: nowIso,
        });
        repo.updateOutbox([r.id], {
          status: outcome.kind === "sent" ? "sent" : "failed",
          attempts: 1,
          ...resultOf(outcome.text),
          finishedAt: atIso,
        });
        if (outcome.kind === "sent" && row.failingSince)
          repo.updateChannel(row.id, { failingSince: null });
        repo.pruneFinished(row.id, DELIVERIES_KEPT);
      });
      log.info({ channelId: row.id, type: row.type, outcome: outcome.kind }, "alerts: test");
      publishChange(userId, "alert-channel.delivered");
      if (outcome.kind === "sent") return { ok: true };
      const t = outcome.text;
      return {
        ok: false,
        error: outcome.result,
        errorCode: t.code,
        ...(t.values ? { errorValues: t.values } : {}),
      };
    },

    webpushKey: () => ({ publicKey: vapid().publicKey }),

    /** The export's `alertChannels` section: the channels as the API shows them (secrets masked). */
    exportSection: (userId: number) => ({ alertChannels: channels.list(userId) }),

    enqueue: sender.enqueue,

    /** Starts the sender: what waited in the outbox across a restart goes out now. */
    start() {
      // The Web Push keys are made with the first key asked for or push sent (vapid()), not here:
      // web-push stays unloaded in a server whose users add no device.
      sender.start();
    },
    /** Stops the sender; an alert being sent finishes (within the request timeout). */
    stop: sender.stop,
    /** Wakes the sender now (after a clock change in tests, or a resumed channel). */
    kick: sender.kick,
    /** Resolves when the sender has nothing to do now. */
    idle: sender.idle,
  };
}
export type AlertsService = ReturnType<typeof createAlertsService>;
